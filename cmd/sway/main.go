// Command sway works with rig files outside a game:
//
//	sway inspect FILE   print the rig of a .glb, .vrm or .gltf file: the
//	                    skeleton tree, the springs with their joints,
//	                    settings and limits, the colliders (kind, inside or
//	                    outside, a plane's normal), the humanoid bone map,
//	                    the animations (duration, channels, interpolations)
//	                    and the skins (joints)
//	sway trace FILE [-frames N] [-dt S] [-root-path PATH.json] [-out OUT] [-format json|csv]
//	               [-clip NAME | -vrma CLIP.vrma] [-in-place]
//	                    step the file's character with its root on a path of
//	                    keyframes and write every bone's world position and
//	                    rotation per frame (see Keyframe and Trace); -clip
//	                    plays the file's animation NAME, -vrma a VRM
//	                    Animation clip retargeted onto the avatar, both
//	                    looping under the file's springs; -in-place moves
//	                    the root by the clip's root motion instead of
//	                    leaving it on the hips
//	sway demo [-out FILE]
//	                    write the project's demo avatar, a VRM 1.0 file
//	                    (sway-demo.vrm; -out - for standard output)
//	sway view [FILE] [-port N]
//	                    serve a page on 127.0.0.1 that draws the file's
//	                    skinned mesh (none: the demo avatar) with sway
//	                    driving its bones, the root on a chosen path, and
//	                    tunes its springs live
//	sway record [FILE] [-out GIF] [-frames N] [-every D] [-width W] [-height H] [-view Q]
//	                    record the viewer in a headless Chromium as a GIF
//	                    (the README's picture: -out docs/viewer.gif)
//
// What the loader warns about a file is never dropped: inspect lists a
// loaded rig's warnings, trace prints them to standard error, and when a
// file is rejected both print the warnings noted before the rejection,
// then the rejection with the JSON path of the offending value.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/gltfrig"
)

const usage = `usage: sway inspect FILE
       sway trace FILE [-frames N] [-dt S] [-root-path PATH.json] [-out OUT] [-format json|csv]
                  [-clip NAME | -vrma CLIP.vrma] [-in-place]
       sway demo [-out FILE]
       sway view [FILE] [-port N]
       sway record [FILE] [-out GIF] [-frames N] [-every D] [-width W] [-height H] [-view Q]

  inspect   print the skeleton tree, springs (with joint limits), colliders
            and humanoid map of a .glb, .vrm or .gltf file, and its warnings
  trace     step the file's character, its root following PATH.json (a list of
            {"t": s, "pos": [x, y, z], "rot": [w, x, y, z]}, linear position,
            slerp rotation; none: the origin), -frames N (60) of -dt S (1/60)
            seconds, and write every bone's world position and rotation (w
            first) per frame, as JSON or CSV, to OUT (none: standard output)
  demo      write the project's demo avatar (VRM 1.0) to FILE (sway-demo.vrm;
            -: standard output)
  view      serve a page on 127.0.0.1, port N (0: a free one; the URL is
            printed), that draws FILE's skinned meshes (none: the demo avatar)
            as sway moves them at 60 Hz: root paths (walk, stand, sprint,
            turn, teleport), play, pause, step, time scale, live spring
            settings; until interrupted
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
			report(stderr, "sway inspect", err)
			return 1
		}
		return 0
	case "trace":
		err := trace(stdout, stderr, args[1:])
		var ue usageError
		switch {
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "sway trace: %v\n%s", ue.error, usage)
			return 2
		case err != nil:
			report(stderr, "sway trace", err)
			return 1
		}
		return 0
	case "demo":
		err := demo(stdout, args[1:])
		var ue usageError
		switch {
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "sway demo: %v\n%s", ue.error, usage)
			return 2
		case err != nil:
			fmt.Fprintf(stderr, "sway demo: %v\n", err)
			return 1
		}
		return 0
	case "record":
		err := record(stdout, args[1:])
		var ue usageError
		switch {
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "sway record: %v\n%s", ue.error, usage)
			return 2
		case err != nil:
			fmt.Fprintf(stderr, "sway record: %v\n", err)
			return 1
		}
		return 0
	case "view":
		err := view(stdout, stderr, args[1:])
		var ue usageError
		switch {
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "sway view: %v\n%s", ue.error, usage)
			return 2
		case err != nil:
			fmt.Fprintf(stderr, "sway view: %v\n", err)
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

// report prints an error; a rejected file's warnings, which explain the
// rejection, come first, one a line.
func report(stderr io.Writer, cmd string, err error) {
	var le *sway.RigLoadError
	var gle *gltfrig.LoadError
	switch {
	case errors.As(err, &le):
		for _, w := range le.Warnings {
			fmt.Fprintf(stderr, "%s: warning: %s\n", cmd, w)
		}
		err = le.Err
	case errors.As(err, &gle): // a command that reads the file itself
		for _, w := range gle.Warnings {
			fmt.Fprintf(stderr, "%s: warning: %s\n", cmd, w)
		}
		err = gle.Err
	}
	fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
}
