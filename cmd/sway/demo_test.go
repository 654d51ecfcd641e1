package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sway-anim/sway/internal/gltfrig"
)

// sway demo writes the demo avatar's bytes to -out (or standard output
// with -out -), and inspect reads the file back; extra arguments are a
// usage error.
func TestDemo(t *testing.T) {
	want, err := gltfrig.DemoAvatar()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "demo.vrm")
	var out, errb bytes.Buffer
	if code := run([]string{"demo", "-out", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("the file (%d bytes, %v) is not DemoAvatar's %d bytes", len(got), err, len(want))
	}
	out.Reset()
	if code := run([]string{"demo", "-out", "-"}, &out, &errb); code != 0 || !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("-out -: exit %d, %d bytes on standard output", code, out.Len())
	}
	out.Reset()
	if code := run([]string{"inspect", path}, &out, &errb); code != 0 || !strings.Contains(out.String(), "VRM 1.0") || !strings.Contains(out.String(), `"Tail"`) {
		t.Fatalf("inspect: exit %d: %s%s", code, out.String(), errb.String())
	}
	errb.Reset()
	if code := run([]string{"demo", "extra"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "unexpected argument") {
		t.Errorf("extra argument: exit %d, %q", code, errb.String())
	}
}
