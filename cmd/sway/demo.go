package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/sway-anim/sway/internal/gltfrig"
)

// demo writes the project's demo avatar (gltfrig.DemoAvatar) to -out, or
// to standard output with -out -.
func demo(stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", gltfrig.DemoAvatarName, "output file (-: standard output)")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	glb, err := gltfrig.DemoAvatar()
	if err != nil {
		return err
	}
	if *out == "-" {
		_, err = stdout.Write(glb)
		return err
	}
	return os.WriteFile(*out, glb, 0o644)
}
