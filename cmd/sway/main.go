// Command sway works with rig files outside a game:
//
//	sway inspect FILE   print the rig of a .glb, .vrm or .gltf file: the
//	                    skeleton tree, the springs with their joints and
//	                    settings, the colliders and the humanoid bone map
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage: sway inspect FILE

  inspect   print the skeleton tree, springs, colliders and humanoid map of a
            .glb, .vrm or .gltf file
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command without the process: it returns the exit status
// (0 done, 1 the file could not be read, 2 bad usage).
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "inspect":
		if len(args) != 2 {
			fmt.Fprint(stderr, usage)
			return 2
		}
		if err := inspect(stdout, args[1]); err != nil {
			fmt.Fprintf(stderr, "sway inspect: %v\n", err)
			return 1
		}
		return 0
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "sway: unknown command %q\n%s", args[0], usage)
		return 2
	}
}
