package gltfrig

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sway-anim/sway/internal/check"
)

// errType is the Type of every *check.FieldError the loader returns; the
// Field is the JSON path of the offending value.
const errType = "glTF"

func bad(path string, value any, format string, args ...any) error {
	return check.Errorf(errType, path, value, format, args...)
}

// LoadError is a rejected file that the loader had noted warnings about
// before it came to the rejection (an extended collider it fell back
// from, a version it did not know, …): the warnings would explain the
// rejection, so they come with it. errors.As finds the rejection's
// *check.FieldError through it, and Warnings(err) returns the warnings.
type LoadError struct {
	Err      error    // the rejection
	Warnings []string // noted before it, in order
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString(e.Err.Error())
	for _, w := range e.Warnings {
		b.WriteString(" [warning: ")
		b.WriteString(w)
		b.WriteString("]")
	}
	return b.String()
}

// Unwrap returns the rejection.
func (e *LoadError) Unwrap() error { return e.Err }

// Warnings returns the warnings an error of Load or Decode carries (see
// LoadError), or nil.
func Warnings(err error) []string {
	var le *LoadError
	if errors.As(err, &le) {
		return le.Warnings
	}
	return nil
}

// Load reads the rig of a .glb, .vrm or .gltf file. The form is told by
// the content (the GLB magic), not by the file name. Buffers are read only
// when the file has animations: the GLB BIN chunk, data: URIs, and files
// the URIs name in the file's directory (or below it). The skeleton is
// named after the file (its base name without the extension).
func Load(path string) (*Rig, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := decode(f, filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	base := filepath.Base(path)
	r.Skeleton.Name = strings.TrimSuffix(base, filepath.Ext(base))
	return r, nil
}

// Decode reads a rig from a GLB stream (.glb, .vrm) or from glTF JSON.
// It reads the GLB header and the JSON chunk (or MaxJSONBytes of JSON),
// and the BIN chunk after it only when the file has animations, whose
// keys are there. A buffer in another file cannot be read from a stream:
// its uri is rejected (Load reads it). A bad file gives a *check.FieldError (errors.Is(err,
// check.ErrInvalid)) whose Field is the JSON path of the offending value,
// or "glb.…" for the binary container; I/O errors come back as they are.
// Nothing the loader warned about is lost: a loaded rig lists the
// warnings in Rig.Warnings, and a rejection after warnings is a
// *LoadError that carries them (Warnings(err)) and wraps the
// *check.FieldError.
func Decode(r io.Reader) (*Rig, error) { return decode(r, "") }

// decode reads a rig; dir is the directory external buffers are read
// from, "" for none.
func decode(r io.Reader, dir string) (*Rig, error) {
	js, src, err := readDocument(r, dir)
	if err != nil {
		return nil, err
	}
	return decodeJSON(js, src)
}

// readDocument reads the JSON text of a GLB stream or of glTF JSON and
// returns it with the source of the buffers behind it.
func readDocument(r io.Reader, dir string) ([]byte, *binSource, error) {
	br := bufio.NewReader(r)
	magic, _ := br.Peek(4)
	src := &binSource{dir: dir}
	var js []byte
	var err error
	if string(magic) == "glTF" {
		var total uint32
		js, total, err = readGLBJSON(br)
		src.glb, src.rest = br, uint64(total)-uint64(len(js))-glbHeaderBytes-8
	} else {
		js, err = readLimited(br, MaxJSONBytes, "json")
	}
	if err != nil {
		return nil, nil, err
	}
	return js, src, nil
}

const (
	glbHeaderBytes = 12
	chunkJSON      = 0x4E4F534A // "JSON"
)

// readGLBJSON reads the GLB header and returns the first chunk, which the
// format requires to be the JSON chunk, and the file's length (glb.length).
func readGLBJSON(r io.Reader) ([]byte, uint32, error) {
	var h [glbHeaderBytes + 8]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, 0, bad("glb", len(h), "truncated header: %v", err)
	}
	le := binary.LittleEndian
	version, total := le.Uint32(h[4:]), le.Uint32(h[8:])
	length, typ := le.Uint32(h[12:]), le.Uint32(h[16:])
	if version != 2 {
		return nil, 0, bad("glb.version", version, "must be 2")
	}
	if typ != chunkJSON {
		return nil, 0, bad("glb.chunks[0].chunkType", fmt.Sprintf("%#x", typ), "the first chunk must be JSON")
	}
	if length > MaxJSONBytes {
		return nil, 0, bad("glb.chunks[0].chunkLength", length, "more than MaxJSONBytes (%d)", MaxJSONBytes)
	}
	if uint64(length)+glbHeaderBytes+8 > uint64(total) {
		return nil, 0, bad("glb.length", total, "shorter than the JSON chunk (%d bytes) and the headers", length)
	}
	// Read as the data arrives: a length that lies costs no allocation.
	js, err := io.ReadAll(io.LimitReader(r, int64(length)))
	if err != nil {
		return nil, 0, err
	}
	if len(js) != int(length) {
		return nil, 0, bad("glb.chunks[0].chunkLength", length, "the file ends after %d bytes of JSON", len(js))
	}
	return js, total, nil
}

func readLimited(r io.Reader, limit int64, path string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, bad(path, "> limit", "more than MaxJSONBytes (%d) of JSON", limit)
	}
	return b, nil
}

// scanJSON bounds what decoding the text can allocate before anything is
// decoded: the nesting depth, the number of values (an upper bound:
// commas plus brackets plus one) and of objects, outside strings.
func scanJSON(b []byte) error {
	depth, values, objects := 0, 1, 0
	inStr, esc := false, false
	for _, c := range b {
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			depth++
			values++
			if c == '{' {
				objects++
			}
			if depth > MaxJSONDepth {
				return bad("json", depth, "nested deeper than MaxJSONDepth (%d)", MaxJSONDepth)
			}
		case '}', ']':
			depth--
		case ',':
			values++
		}
	}
	if values > MaxJSONValues {
		return bad("json", values, "more than MaxJSONValues (%d) values", MaxJSONValues)
	}
	if objects > MaxJSONObjects {
		return bad("json", objects, "more than MaxJSONObjects (%d) objects", MaxJSONObjects)
	}
	return nil
}

func trimBOM(b []byte) []byte {
	return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
}
