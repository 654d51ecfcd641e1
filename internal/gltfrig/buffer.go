package gltfrig

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

const chunkBIN = 0x004E4942 // "BIN\x00"

// binSource supplies the bytes behind the document's buffers: the GLB
// BIN chunk (read from the stream after the JSON chunk, only when a
// buffer is first needed), data: URIs, and files next to a .gltf or .glb
// read by Load. Every buffer is read at most once.
type binSource struct {
	// glb is the GLB stream just after the JSON chunk, nil for glTF JSON;
	// rest is what glb.length says follows the JSON chunk.
	glb  io.Reader
	rest uint64
	// dir is the directory of the file Load reads, "" for a bare stream
	// (Decode): then an external URI cannot be resolved.
	dir string

	binRead bool
	bin     []byte
	binErr  error
}

// chunk returns the GLB BIN chunk, reading it on the first call. A length
// that lies costs no allocation: the chunk is read as the data arrives.
func (s *binSource) chunk() ([]byte, error) {
	if s.binRead {
		return s.bin, s.binErr
	}
	s.binRead = true
	s.bin, s.binErr = s.readChunk()
	return s.bin, s.binErr
}

func (s *binSource) readChunk() ([]byte, error) {
	const path = "glb.chunks[1]"
	if s.glb == nil {
		return nil, bad("buffers[0].uri", nil, "required outside a GLB file")
	}
	if s.rest == 0 {
		return nil, bad(path, nil, "buffers[0] has no uri, so it is the BIN chunk, but the file has no chunk after the JSON")
	}
	var h [8]byte
	if s.rest < uint64(len(h)) {
		return nil, bad(path, s.rest, "glb.length leaves %d bytes after the JSON chunk, less than a chunk header", s.rest)
	}
	if _, err := io.ReadFull(s.glb, h[:]); err != nil {
		return nil, bad(path, nil, "truncated chunk header: %v", err)
	}
	le := binary.LittleEndian
	length, typ := le.Uint32(h[:]), le.Uint32(h[4:])
	if typ != chunkBIN {
		return nil, bad(path+".chunkType", fmt.Sprintf("%#x", typ), "the chunk after the JSON must be BIN for buffers[0], which has no uri")
	}
	if uint64(length)+8 > s.rest {
		return nil, bad(path+".chunkLength", length, "longer than glb.length allows (%d bytes after the JSON chunk)", s.rest)
	}
	if length > MaxBufferBytes {
		return nil, bad(path+".chunkLength", length, "more than MaxBufferBytes (%d)", MaxBufferBytes)
	}
	b, err := io.ReadAll(io.LimitReader(s.glb, int64(length)))
	if err != nil {
		return nil, err
	}
	if len(b) != int(length) {
		return nil, bad(path+".chunkLength", length, "the file ends after %d bytes of the chunk", len(b))
	}
	return b, nil
}

// jsonBuffer is a glTF buffer as the file writes it.
type jsonBuffer struct {
	URI        *string `json:"uri"`
	ByteLength *int    `json:"byteLength"`
}

// loadBuffer reads buffers[i]: its bytes, exactly byteLength of them.
func (s *binSource) loadBuffer(i int, b *jsonBuffer) ([]byte, error) {
	path := fmt.Sprintf("buffers[%d]", i)
	if b.ByteLength == nil {
		return nil, bad(path+".byteLength", nil, "required")
	}
	n := *b.ByteLength
	if n < 1 {
		return nil, bad(path+".byteLength", n, "must be >= 1")
	}
	if n > MaxBufferBytes {
		return nil, bad(path+".byteLength", n, "more than MaxBufferBytes (%d)", MaxBufferBytes)
	}
	var data []byte
	var err error
	switch {
	case b.URI == nil && i == 0 && s.glb != nil:
		data, err = s.chunk()
	case b.URI == nil:
		return nil, bad(path+".uri", nil, "required (only buffers[0] of a GLB file, the BIN chunk, has none)")
	case strings.HasPrefix(*b.URI, "data:"):
		data, err = dataURI(path+".uri", *b.URI)
	default:
		data, err = s.external(path+".uri", *b.URI, n)
	}
	if err != nil {
		return nil, err
	}
	// The BIN chunk may be padded by up to 3 bytes past byteLength.
	if len(data) < n {
		return nil, bad(path+".byteLength", n, "the buffer's data has only %d bytes", len(data))
	}
	return data[:n:n], nil
}

// dataURI decodes a base64 data: URI (data:[<media type>];base64,<data>).
// Its size is bounded by the JSON text's.
func dataURI(path, uri string) ([]byte, error) {
	head, payload, ok := strings.Cut(uri, ",")
	if !ok || !strings.HasSuffix(head, ";base64") {
		return nil, bad(path, short(uri), "a data: URI must be base64 (data:<type>;base64,<data>)")
	}
	b, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return nil, bad(path, short(uri), "bad base64: %v", err)
	}
	return b, nil
}

// external reads up to n bytes of a file named by a relative URI, inside
// the directory of the file Load reads (os.Root: no .., absolute path or
// symbolic link leads out of it).
func (s *binSource) external(path, uri string, n int) ([]byte, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "" || u.Host != "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, bad(path, short(uri), "only data: URIs and relative file paths are read")
	}
	name := filepath.FromSlash(u.Path)
	if !filepath.IsLocal(name) {
		return nil, bad(path, short(uri), "an external buffer must be a file in the glTF file's directory or below it")
	}
	if s.dir == "" {
		return nil, bad(path, short(uri), "an external buffer can only be read next to a file (Load), not from a stream (Decode)")
	}
	root, err := os.OpenRoot(s.dir)
	if err != nil {
		return nil, bad(path, short(uri), "%v", err)
	}
	defer root.Close()
	f, err := root.Open(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, bad(path, short(uri), "cannot open: %v", err)
	}
	defer f.Close()
	// Read as the data arrives: a byteLength that lies costs no allocation.
	b, err := io.ReadAll(io.LimitReader(f, int64(n)))
	if err != nil {
		return nil, bad(path, short(uri), "cannot read: %v", err)
	}
	return b, nil
}

// short cuts a long value (a data: URI) for an error message.
func short(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
