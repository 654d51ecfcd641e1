package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"io/fs"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/sway-anim/sway/internal/gltfrig"
)

// startViewer serves file (none: the demo avatar) on a free port until the
// test ends and returns its address.
func startViewer(t *testing.T, file string) (string, *viewer) {
	t.Helper()
	v, err := newViewer(file)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- v.serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("the server did not stop")
		}
	})
	return ln.Addr().String(), v
}

func get(t *testing.T, url string) []byte {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s, %v", url, res.Status, err)
	}
	return b
}

// The server serves the page, its scripts and the model: the demo
// avatar's bytes as DemoAvatar writes them.
func TestViewServesPageAndModel(t *testing.T) {
	addr, _ := startViewer(t, "")
	page := get(t, "http://"+addr+"/")
	for _, want := range []string{`<canvas id="view"`, `id="status"`, `src="view.js"`, `src="glb.js"`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page has no %s", want)
		}
	}
	for _, js := range []string{"view.js", "glb.js"} {
		if b := get(t, "http://"+addr+"/"+js); len(b) == 0 {
			t.Errorf("%s is empty", js)
		}
	}
	want, err := gltfrig.DemoAvatar()
	if err != nil {
		t.Fatal(err)
	}
	if got := get(t, "http://"+addr+"/model.glb"); !bytes.Equal(got, want) {
		t.Errorf("/model.glb is %d bytes, not DemoAvatar's %d", len(got), len(want))
	}
}

// wsClient is a page's end of the stream.
type wsClient struct {
	t    *testing.T
	conn *websocket.Conn
	ctx  context.Context
}

func dialView(t *testing.T, addr string) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	conn, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadLimit(1 << 24)
	t.Cleanup(func() { conn.CloseNow() })
	return &wsClient{t, conn, ctx}
}

// next reads messages until one is a frame (binary) or a text message
// of the type; it returns the frame's floats or the message.
func (c *wsClient) next(typ string) ([]float32, map[string]any) {
	c.t.Helper()
	for {
		mt, b, err := c.conn.Read(c.ctx)
		if err != nil {
			c.t.Fatalf("reading the stream: %v", err)
		}
		if mt == websocket.MessageBinary {
			if typ != "frame" {
				continue
			}
			if len(b)%64 != 0 {
				c.t.Fatalf("a frame of %d bytes: not 16 float32 per joint", len(b))
			}
			f := make([]float32, len(b)/4)
			for i := range f {
				f[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
			}
			return f, nil
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			c.t.Fatalf("a text message that is not JSON: %q", b)
		}
		if m["type"] == typ {
			return nil, m
		}
		if typ != "frame" && m["type"] == "error" {
			c.t.Fatalf("waiting for %q: error %v", typ, m["error"])
		}
	}
}

func (c *wsClient) send(msg string) {
	c.t.Helper()
	if err := c.conn.Write(c.ctx, websocket.MessageText, []byte(msg)); err != nil {
		c.t.Fatal(err)
	}
}

// A page gets the hello, then frames of every joint's matrix, finite,
// that change while the root walks.
func TestViewStreamsFrames(t *testing.T) {
	addr, v := startViewer(t, "")
	c := dialView(t, addr)
	_, hello := c.next("hello")
	joints := int(hello["joints"].(float64))
	if joints == 0 || len(hello["springs"].([]any)) != gltfrig.DemoSprings || len(hello["bind"].([]any)) != 16*joints {
		t.Fatalf("hello: %d joints, %d springs, %d bind values", joints, len(hello["springs"].([]any)), len(hello["bind"].([]any)))
	}
	if v.sim.skins[0].NumJoints() != joints {
		t.Fatalf("hello says %d joints, the skin has %d", joints, v.sim.skins[0].NumJoints())
	}
	c.send(`{"cmd":"path","name":"walk"}`)
	first, _ := c.next("frame")
	var last []float32
	for range 20 {
		f, _ := c.next("frame")
		if len(f) != 16*joints {
			t.Fatalf("a frame of %d bytes, want 16 × %d joints × 4", 4*len(f), joints)
		}
		for i, x := range f {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				t.Fatalf("joint %d's matrix has %v", i/16, x)
			}
		}
		last = f
	}
	moved := 0.0
	for i := range first {
		moved = max(moved, math.Abs(float64(last[i]-first[i])))
	}
	if moved < 1e-3 {
		t.Errorf("20 frames of walking change no matrix by more than %g", moved)
	}
}

// Pausing stops the frames; a step sends one.
func TestViewPauseAndStep(t *testing.T) {
	addr, _ := startViewer(t, "")
	c := dialView(t, addr)
	c.send(`{"cmd":"pause"}`)
	for {
		if _, st := c.next("state"); st["playing"] == false {
			break
		}
	}
	c.send(`{"cmd":"step"}`)
	if f, _ := c.next("frame"); len(f) == 0 {
		t.Fatal("no frame after a step")
	}
	c.send(`{"cmd":"speed","value":0.5}`)
	for { // the step's state, then the speed's
		if _, st := c.next("state"); st["timeScale"] == 0.5 {
			break
		}
	}
}

// A tuning message changes the spring's settings (read back through
// JointSettings, on a simulation driven here, not in its goroutine); the
// stream answers with the new settings.
func TestViewTune(t *testing.T) {
	v, err := newViewer("")
	if err != nil {
		t.Fatal(err)
	}
	s := v.sim
	defer s.w.Close()
	from := &viewClient{frames: make(chan []byte, 1), msgs: make(chan []byte, 64)}
	s.clients[from] = true
	cmd, err := parseViewCmd(websocket.MessageText, []byte(`{"cmd":"tune","spring":3,"stiffness":2.5,"dragForce":0.2,"gravityPower":0.7,"hitRadius":0.03}`))
	if err != nil {
		t.Fatal(err)
	}
	cmd.from = from
	before, _ := s.springs.JointSettings(3, 0)
	s.apply(cmd)
	s.advance()
	for j := range 3 {
		got, err := s.springs.JointSettings(3, j)
		if err != nil {
			t.Fatal(err)
		}
		if got.Stiffness != 2.5 || got.DragForce != 0.2 || got.GravityPower != 0.7 || got.HitRadius != 0.03 || got.GravityDir != before.GravityDir {
			t.Errorf("joint %d after tuning: %+v", j, got)
		}
	}
	var reply map[string]any
	if err := json.Unmarshal(<-from.msgs, &reply); err != nil || reply["type"] != "spring" || reply["index"] != 3.0 {
		t.Errorf("reply %v (%v)", reply, err)
	}
	// Refused by the library: the old settings stay.
	cmd, _ = parseViewCmd(websocket.MessageText, []byte(`{"cmd":"tune","spring":3,"dragForce":1.5}`))
	cmd.from = from
	s.apply(cmd)
	if err := json.Unmarshal(<-from.msgs, &reply); err != nil || reply["type"] != "error" || !strings.Contains(reply["error"].(string), "DragForce") {
		t.Errorf("reply to dragForce 1.5: %v (%v)", reply, err)
	}
	if got, _ := s.springs.JointSettings(3, 0); got.DragForce != 0.2 {
		t.Errorf("a refused setting changed dragForce to %v", got.DragForce)
	}
}

// Bad messages get an error message and the stream goes on.
func TestViewBadMessages(t *testing.T) {
	addr, _ := startViewer(t, "")
	c := dialView(t, addr)
	c.next("hello")
	for _, bad := range []string{
		`not json`,
		`{"cmd":"fly"}`,
		`{"cmd":"speed","value":99}`,
		`{"cmd":"path","name":"moon"}`,
		`{"cmd":"tune","spring":0}`,
		`{"cmd":"tune","spring":999,"stiffness":1}`,
		`{"cmd":"tune","spring":0,"stiffness":-1}`,
		`{"cmd":"tune","spring":0,"stiffness":"stiff"}`,
		`{"cmd":"springs","action":"explode"}`,
		`{"cmd":"play","extra":1}`,
	} {
		c.send(bad)
		_, m := c.next("error")
		if msg, _ := m["error"].(string); msg == "" {
			t.Errorf("%s: error message %v", bad, m)
		}
	}
	if err := c.conn.Write(c.ctx, websocket.MessageBinary, []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	c.next("error")
	c.send(`{"cmd":"springs","action":"reset"}`)
	c.next("state")
	if f, _ := c.next("frame"); len(f) == 0 {
		t.Fatal("no frames after the bad messages")
	}
}

// A file that does not load: the server runs and the page is told why.
func TestViewBadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.glb")
	if err := os.WriteFile(path, []byte("glTF not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	addr, v := startViewer(t, path)
	if v.loadErr == "" {
		t.Fatal("a bad file loaded")
	}
	get(t, "http://"+addr+"/")
	c := dialView(t, addr)
	_, m := c.next("error")
	if msg, _ := m["error"].(string); !strings.Contains(msg, "bad.glb") {
		t.Errorf("the error does not name the file: %q", msg)
	}
}

func TestViewUsage(t *testing.T) {
	var out, errs bytes.Buffer
	for _, args := range [][]string{{"view", "-port", "-1"}, {"view", "a.glb", "b.glb"}, {"view", "-nope"}} {
		out.Reset()
		errs.Reset()
		if code := run(args, &out, &errs); code != 2 || !strings.Contains(errs.String(), "sway view") {
			t.Errorf("%q: exit %d, %q", args, code, errs.String())
		}
	}
	if code := run([]string{"view", filepath.Join(t.TempDir(), "none.glb")}, &out, &errs); code != 1 {
		t.Errorf("a missing file: exit %d", code)
	}
}

// The page's scripts parse (node --check); node is required.
func TestViewJavaScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed: the page's JavaScript cannot be checked (install Node.js): %v", err)
	}
	dir := t.TempDir()
	n := 0
	err = fs.WalkDir(webFiles, "web", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		b, err := webFiles.ReadFile(p)
		if err != nil {
			return err
		}
		f := filepath.Join(dir, filepath.Base(p))
		if err := os.WriteFile(f, b, 0o644); err != nil {
			return err
		}
		if out, err := exec.Command(node, "--check", f).CombinedOutput(); err != nil {
			t.Errorf("node --check %s: %v\n%s", p, err, out)
		}
		n++
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("%d scripts checked: %v", n, err)
	}
}
