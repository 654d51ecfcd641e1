package main

import (
	"bytes"
	"context"
	"embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/gltfrig"
)

// The viewer: sway view serves an embedded page (web/) that draws the
// file's skinned meshes with WebGL2. The simulation runs here, in one
// goroutine that owns the World, and streams every frame's skin matrices
// to the page over a WebSocket (/ws); the page sends its controls back
// on the same socket.
//
// Protocol on /ws:
//
//   - server to page, binary: one frame, every skin's matrices (skins in
//     the file's order, joints in each skin's order) as column-major
//     float32 values, little-endian, 16 per joint (World.SkinFloats):
//     16 × joints × 4 bytes.
//   - server to page, text JSON with "type": "hello" (once, first: the
//     model's skins, joints, bind matrices, springs and colliders; see
//     viewHello), "state" (after a control: see viewState), "spring" (a
//     spring's settings after a change), "error" (a refused message or a
//     file that did not load; the server keeps running).
//   - page to server, text JSON with "cmd": "play", "pause", "step" (one
//     frame while paused), "speed" with "value" (time scale, [0, 4]),
//     "path" with "name" (a root path of viewPaths), "tune" with "spring"
//     (index) and any of "stiffness", "dragForce", "gravityPower",
//     "hitRadius" (applied with SetSpringSettings before the next
//     frame), "springs" with "action" ("pause", "resume", "reset").

//go:embed web
var webFiles embed.FS

// viewHz is the simulation's and the stream's frame rate.
const viewHz = 60

// maxTimeScale bounds the "speed" control (a frame's dt stays within
// sway.MaxDt).
const maxTimeScale = 4

// viewPaths are the root paths the page can choose, the first the
// default.
var viewPaths = []string{"walk", "stand", "sprint", "turn", "teleport"}

func view(stdout, stderr io.Writer, args []string) error {
	fl := flag.NewFlagSet("view", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	port := fl.Int("port", 0, "port on 127.0.0.1 (0: a free one)")
	var file string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if err := fl.Parse(args); err != nil {
		return usageError{err}
	}
	if file == "" && fl.NArg() == 1 {
		file = fl.Arg(0)
	} else if fl.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fl.Arg(0))}
	}
	if *port < 0 || *port > 65535 {
		return usageError{fmt.Errorf("-port %d: must be in [0, 65535]", *port)}
	}
	v, err := newViewer(file)
	if err != nil {
		return err
	}
	if v.loadErr != "" {
		fmt.Fprintf(stderr, "sway view: %s (the page shows it)\n", v.loadErr)
	}
	for _, w := range v.warnings {
		fmt.Fprintf(stderr, "sway view: warning: %s\n", w)
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(stdout, "sway view: %s on http://%s/\n", v.name, ln.Addr())
	return v.serve(ctx, ln)
}

// viewer is one file's server: the page, the model's bytes and the
// simulation (nil when the file did not load).
type viewer struct {
	name     string
	model    []byte
	loadErr  string // why the file did not load, for the page
	warnings []string
	sim      *viewSim
}

// newViewer reads the file (none: the demo avatar) and sets up its
// simulation. A file that cannot be read is an error; one that does not
// load as a rig gives a viewer that shows why.
func newViewer(file string) (*viewer, error) {
	v := &viewer{name: file}
	path := file
	if file == "" {
		glb, err := gltfrig.DemoAvatar()
		if err != nil {
			return nil, err
		}
		dir, err := os.MkdirTemp("", "sway-view")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		path = dir + string(os.PathSeparator) + gltfrig.DemoAvatarName
		if err := os.WriteFile(path, glb, 0o600); err != nil {
			return nil, err
		}
		v.name, v.model = "the demo avatar", glb
	} else {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		v.model = b
	}
	r, err := sway.LoadRig(path)
	if err != nil {
		v.loadErr = loadErrorText(err)
		return v, nil
	}
	v.warnings = r.Warnings
	s, err := newViewSim(r, v.name)
	if err != nil {
		v.loadErr = err.Error()
		return v, nil
	}
	v.sim = s
	return v, nil
}

// loadErrorText is a rejected file's error after the warnings noted
// before it.
func loadErrorText(err error) string {
	var le *sway.RigLoadError
	if errors.As(err, &le) {
		var b strings.Builder
		for _, w := range le.Warnings {
			fmt.Fprintf(&b, "warning: %s\n", w)
		}
		b.WriteString(le.Err.Error())
		return b.String()
	}
	return err.Error()
}

// handler serves the page (/), the model (/model.glb) and the stream
// (/ws).
func (v *viewer) handler() http.Handler {
	mux := http.NewServeMux()
	web, _ := fs.Sub(webFiles, "web")
	mux.Handle("GET /", http.FileServerFS(web))
	mux.HandleFunc("GET /model.glb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "model/gltf-binary")
		w.Header().Set("Cache-Control", "no-store")
		http.ServeContent(w, r, "model.glb", time.Time{}, bytes.NewReader(v.model))
	})
	mux.HandleFunc("GET /ws", v.stream)
	return mux
}

// serve runs the simulation and the server on ln until ctx is done.
func (v *viewer) serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srv := &http.Server{Handler: v.handler(), BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan struct{})
	if v.sim != nil {
		go func() { v.sim.run(ctx); close(done) }()
	} else {
		close(done)
	}
	go func() {
		<-ctx.Done()
		shut, c := context.WithTimeout(context.Background(), time.Second)
		defer c()
		_ = srv.Shutdown(shut)
	}()
	err := srv.Serve(ln)
	cancel()
	<-done
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// viewClient is one page's connection: the latest frame not yet sent
// (older ones are dropped) and the text messages to send, in order.
type viewClient struct {
	frames chan []byte
	msgs   chan []byte
}

// send queues a text message; a page that reads nothing loses messages
// rather than stalling the simulation.
func (c *viewClient) send(m any) {
	b, err := json.Marshal(m)
	if err != nil {
		b, _ = json.Marshal(viewError{Type: "error", Error: err.Error()})
	}
	select {
	case c.msgs <- b:
	default:
	}
}

// frame hands over the latest frame, replacing one not yet sent. Only the
// simulation's goroutine calls it.
func (c *viewClient) frame(b []byte) {
	select {
	case c.frames <- b:
		return
	default:
	}
	select {
	case <-c.frames:
	default:
	}
	select {
	case c.frames <- b:
	default:
	}
}

type viewError struct {
	Type  string `json:"type"` // "error"
	Error string `json:"error"`
}

// stream serves one page's WebSocket.
func (v *viewer) stream(w http.ResponseWriter, r *http.Request) {
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer conn.CloseNow()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	c := &viewClient{frames: make(chan []byte, 1), msgs: make(chan []byte, 64)}
	if v.sim == nil {
		c.send(viewError{Type: "error", Error: v.name + ": " + v.loadErr})
	} else {
		select {
		case v.sim.join <- c:
		case <-ctx.Done():
			return
		}
		defer func() {
			select {
			case v.sim.leave <- c:
			case <-v.sim.done:
			}
		}()
	}
	go func() { // the page's messages, parsed here and applied by the simulation
		defer cancel()
		for {
			typ, data, err := conn.Read(ctx)
			if err != nil {
				return
			}
			cmd, err := parseViewCmd(typ, data)
			if err != nil {
				c.send(viewError{Type: "error", Error: err.Error()})
				continue
			}
			if v.sim == nil {
				c.send(viewError{Type: "error", Error: "no simulation: " + v.loadErr})
				continue
			}
			cmd.from = c
			select {
			case v.sim.cmds <- cmd:
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		var typ websocket.MessageType
		var b []byte
		select {
		case <-ctx.Done():
			return
		case b = <-c.msgs:
			typ = websocket.MessageText
		case b = <-c.frames:
			typ = websocket.MessageBinary
		}
		wctx, wc := context.WithTimeout(ctx, 5*time.Second)
		err := conn.Write(wctx, typ, b)
		wc()
		if err != nil {
			return
		}
	}
}

// viewCmd is a message of the page.
type viewCmd struct {
	Cmd    string   `json:"cmd"`
	Value  *float64 `json:"value,omitempty"`  // speed
	Name   string   `json:"name,omitempty"`   // path
	Action string   `json:"action,omitempty"` // springs
	Spring *int     `json:"spring,omitempty"` // tune
	viewTune
	from *viewClient
}

// viewTune are the settings a "tune" message may change, and what a
// "spring" message reports; absent fields keep their values.
type viewTune struct {
	Stiffness    *float32 `json:"stiffness,omitempty"`
	DragForce    *float32 `json:"dragForce,omitempty"`
	GravityPower *float32 `json:"gravityPower,omitempty"`
	HitRadius    *float32 `json:"hitRadius,omitempty"`
}

// parseViewCmd reads and checks a message of the page (the settings'
// ranges are the library's to check).
func parseViewCmd(typ websocket.MessageType, data []byte) (viewCmd, error) {
	var c viewCmd
	if typ != websocket.MessageText {
		return c, errors.New("messages to the server are JSON text")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("bad message %.80q: %v", data, err)
	}
	switch c.Cmd {
	case "play", "pause", "step":
	case "speed":
		if c.Value == nil || !(*c.Value >= 0 && *c.Value <= maxTimeScale) {
			return c, fmt.Errorf("speed: value must be in [0, %d]", maxTimeScale)
		}
	case "path":
		found := false
		for _, p := range viewPaths {
			found = found || p == c.Name
		}
		if !found {
			return c, fmt.Errorf("path: name %q: one of %s", c.Name, strings.Join(viewPaths, ", "))
		}
	case "tune":
		if c.Spring == nil {
			return c, errors.New("tune: no spring index")
		}
		if c.Stiffness == nil && c.DragForce == nil && c.GravityPower == nil && c.HitRadius == nil {
			return c, errors.New("tune: no setting (stiffness, dragForce, gravityPower, hitRadius)")
		}
	case "springs":
		if c.Action != "pause" && c.Action != "resume" && c.Action != "reset" {
			return c, fmt.Errorf("springs: action %q: pause, resume or reset", c.Action)
		}
	default:
		return c, fmt.Errorf("unknown cmd %q: play, pause, step, speed, path, tune or springs", c.Cmd)
	}
	return c, nil
}

// viewHello describes the model to the page.
type viewHello struct {
	Type     string     `json:"type"` // "hello"
	File     string     `json:"file"`
	Version  string     `json:"version"`
	Joints   int        `json:"joints"` // every skin's, the joints of a frame
	Skins    []viewSkin `json:"skins"`
	Bind     []float32  `json:"bind"`    // 16 per joint: its bind matrix (the inverse of its inverse bind), column-major
	Parents  []int      `json:"parents"` // per joint: the joint (of its skin) of its nearest ancestor bone that is one, or -1
	Follow   int        `json:"follow"`  // the joint the camera follows (the hips), or -1
	Springs  []viewSpr  `json:"springs"`
	Collider []viewColl `json:"colliders"`
	Paths    []string   `json:"paths"`
	Warnings []string   `json:"warnings"`
	State    viewState  `json:"state"`
	Limits   viewLimits `json:"limits"`
}

type viewSkin struct {
	Name   string `json:"name"`
	Joints int    `json:"joints"`
	Offset int    `json:"offset"` // its first joint in a frame
}

type viewSpr struct {
	Name     string   `json:"name"`
	Joints   []string `json:"joints"`
	Settings viewTune `json:"settings"` // its first joint's
}

type viewColl struct {
	Joint      int        `json:"joint"` // the joint of its bone, or -1 (not drawn)
	Bone       string     `json:"bone"`
	Kind       string     `json:"kind"` // sphere, capsule, plane
	Inside     bool       `json:"inside"`
	Offset     [3]float32 `json:"offset"`
	Tail       [3]float32 `json:"tail"`
	Radius     float32    `json:"radius"`
	TailRadius float32    `json:"tailRadius"`
}

type viewLimits struct {
	MaxTimeScale float64 `json:"maxTimeScale"`
	Hz           int     `json:"hz"`
}

// viewState is what the controls show.
type viewState struct {
	Type          string  `json:"type"` // "state"
	Playing       bool    `json:"playing"`
	TimeScale     float64 `json:"timeScale"`
	Path          string  `json:"path"`
	SpringsPaused bool    `json:"springsPaused"`
	Time          float64 `json:"time"` // seconds simulated
}

type viewSpringMsg struct {
	Type     string   `json:"type"` // "spring"
	Index    int      `json:"index"`
	Settings viewTune `json:"settings"`
}

// viewSim is the simulation: one World with one character, owned by the
// goroutine of run; everything else talks to it through its channels.
type viewSim struct {
	w       *sway.World
	e       arche.Entity
	skins   []*sway.Skin
	springs sway.VRMSprings
	hello   viewHello
	state   viewState
	pathT   float64 // time on the current path
	floats  []float32

	cmds    chan viewCmd
	join    chan *viewClient
	leave   chan *viewClient
	done    chan struct{}
	clients map[*viewClient]bool
}

func newViewSim(r *sway.Rig, name string) (*viewSim, error) {
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		return nil, err
	}
	s := &viewSim{w: w, cmds: make(chan viewCmd, 16), join: make(chan *viewClient), leave: make(chan *viewClient),
		done: make(chan struct{}), clients: map[*viewClient]bool{}}
	s.state = viewState{Type: "state", Playing: true, TimeScale: 1, Path: viewPaths[0]}
	e, err := w.AddRig(r, viewRoot(s.state.Path, 0))
	if err != nil {
		w.Close()
		return nil, err
	}
	s.e, s.springs = e, w.VRMSprings().Of(e)
	skel, err := w.Skeleton(e)
	if err != nil {
		w.Close()
		return nil, err
	}
	if err := playFirstAnimation(w, e, r, skel); err != nil {
		w.Close()
		return nil, err
	}
	h := viewHello{Type: "hello", File: name, Version: r.Version.String(), Follow: -1, Paths: viewPaths,
		Warnings: r.Warnings, Limits: viewLimits{MaxTimeScale: maxTimeScale, Hz: viewHz}}
	jointOf := map[int]int{} // bone -> first joint showing it
	for i, d := range r.Skins {
		sk, err := sway.NewSkin(skel, d)
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("skins[%d]: %w", i, err)
		}
		s.skins = append(s.skins, sk)
		h.Skins = append(h.Skins, viewSkin{Name: d.Name, Joints: sk.NumJoints(), Offset: h.Joints})
		local := map[int]int{}
		for j := 0; j < sk.NumJoints(); j++ {
			local[sk.JointBone(j)] = h.Joints + j
		}
		parents := skel.Parents()
		for j := 0; j < sk.NumJoints(); j++ {
			b := sk.JointBone(j)
			if _, ok := jointOf[b]; !ok {
				jointOf[b] = h.Joints + j
			}
			p := -1
			for a := int(parents[b]); a >= 0 && p < 0; a = int(parents[a]) {
				if k, ok := local[a]; ok {
					p = k
				}
			}
			h.Parents = append(h.Parents, p)
			bind := sk.InverseBind(j).Inv()
			h.Bind = append(h.Bind, bind[:]...)
		}
		h.Joints += sk.NumJoints()
	}
	if hips := r.HumanBone("hips"); hips != "" {
		if k, ok := jointOf[skel.Index(hips)]; ok {
			h.Follow = k
		}
	}
	kinds := []string{"sphere", "capsule", "plane"}
	for _, c := range r.Colliders {
		k, ok := jointOf[skel.Index(c.Bone)]
		if !ok {
			k = -1
		}
		kind := "?"
		if int(c.Shape.Kind) < len(kinds) {
			kind = kinds[c.Shape.Kind]
		}
		off, tail := c.Shape.Offset, c.Shape.Tail
		if c.Shape.Kind == 2 { // a plane: its normal in Tail
			tail = c.Shape.Normal
		}
		h.Collider = append(h.Collider, viewColl{Joint: k, Bone: c.Bone, Kind: kind, Inside: c.Shape.Bound != 0,
			Offset: off, Tail: tail, Radius: c.Shape.Radius, TailRadius: c.Shape.TailRadius})
	}
	names, joints := addedSprings(r) // the library's own list, in the handle's order
	for i, n := range names {
		js, err := s.springs.JointSettings(i, 0)
		if err != nil {
			w.Close()
			return nil, err
		}
		h.Springs = append(h.Springs, viewSpr{Name: n, Joints: joints[i], Settings: tuneOf(js)})
	}
	if h.Springs == nil {
		h.Springs = []viewSpr{}
	}
	h.State = s.state
	s.hello = h
	return s, nil
}

// addedSprings names the springs AddRig adds, in the VRMSprings handle's
// order, with their swinging joints (Rig.AddedSprings).
func addedSprings(r *sway.Rig) (names []string, joints [][]string) {
	for _, a := range r.AddedSprings() {
		names, joints = append(names, a.Name), append(joints, a.Joints)
	}
	return names, joints
}

func tuneOf(s sway.VRMJointSettings) viewTune {
	return viewTune{Stiffness: &s.Stiffness, DragForce: &s.DragForce, GravityPower: &s.GravityPower, HitRadius: &s.HitRadius}
}

// run steps the world at viewHz and serves the pages' messages until ctx
// is done; then it closes the world.
func (s *viewSim) run(ctx context.Context) {
	defer close(s.done)
	defer s.w.Close()
	tick := time.NewTicker(time.Second / viewHz)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case c := <-s.join:
			s.clients[c] = true
			c.send(s.hello)
			s.sendFrame(c)
		case c := <-s.leave:
			delete(s.clients, c)
		case cmd := <-s.cmds:
			s.apply(cmd)
		case <-tick.C:
			if s.state.Playing && len(s.clients) > 0 { // no page, no time passes
				s.advance()
			}
		}
	}
}

// advance moves the root along its path and steps one frame of dt
// 1/viewHz times the time scale, then sends the frame to every page.
func (s *viewSim) advance() {
	dt := s.state.TimeScale / viewHz
	s.pathT += dt
	s.state.Time += dt
	if err := s.w.SetRoot(s.e, viewRoot(s.state.Path, s.pathT)); err != nil {
		s.broadcast(viewError{Type: "error", Error: err.Error()})
		return
	}
	if err := s.w.Step(float32(dt)); err != nil {
		s.broadcast(viewError{Type: "error", Error: err.Error()})
		return
	}
	if len(s.clients) == 0 {
		return
	}
	if b := s.frameBytes(); b != nil {
		for c := range s.clients {
			c.frame(b)
		}
	}
}

func (s *viewSim) sendFrame(c *viewClient) {
	if b := s.frameBytes(); b != nil {
		c.frame(b)
	}
}

// frameBytes is the current frame as the stream sends it (nil when the
// skins cannot be read, which the pages are told).
func (s *viewSim) frameBytes() []byte {
	s.floats = s.floats[:0]
	for _, sk := range s.skins {
		var err error
		if s.floats, err = s.w.SkinFloats(s.e, sk, s.floats); err != nil {
			s.broadcast(viewError{Type: "error", Error: err.Error()})
			return nil
		}
	}
	b := make([]byte, 4*len(s.floats))
	for i, f := range s.floats {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func (s *viewSim) broadcast(m any) {
	for c := range s.clients {
		c.send(m)
	}
}

// apply carries out a page's message; what the library refuses goes back
// to that page as an error.
func (s *viewSim) apply(c viewCmd) {
	fail := func(err error) { c.from.send(viewError{Type: "error", Error: c.Cmd + ": " + err.Error()}) }
	switch c.Cmd {
	case "play":
		s.state.Playing = true
	case "pause":
		s.state.Playing = false
	case "step":
		s.state.Playing = false
		s.advance()
	case "speed":
		s.state.TimeScale = *c.Value
	case "path":
		s.state.Path, s.pathT = c.Name, 0
		if !s.state.Playing { // show the path's start
			if err := s.w.SetRoot(s.e, viewRoot(c.Name, 0)); err != nil {
				fail(err)
				return
			}
			for cl := range s.clients {
				s.sendFrame(cl)
			}
		}
	case "tune":
		i := *c.Spring
		cur, err := s.springs.JointSettings(i, 0)
		if err != nil {
			fail(err)
			return
		}
		if c.Stiffness != nil {
			cur.Stiffness = *c.Stiffness
		}
		if c.DragForce != nil {
			cur.DragForce = *c.DragForce
		}
		if c.GravityPower != nil {
			cur.GravityPower = *c.GravityPower
		}
		if c.HitRadius != nil {
			cur.HitRadius = *c.HitRadius
		}
		if err := s.springs.SetSpringSettings(i, cur); err != nil {
			fail(err)
			return
		}
		s.hello.Springs[i].Settings = tuneOf(cur)
		s.broadcast(viewSpringMsg{Type: "spring", Index: i, Settings: tuneOf(cur)})
		return
	case "springs":
		var err error
		switch c.Action {
		case "pause":
			err = s.springs.Pause()
		case "resume":
			err = s.springs.Resume()
		case "reset":
			err = s.springs.Reset()
		}
		if err != nil {
			fail(err)
			return
		}
		if c.Action != "reset" {
			s.state.SpringsPaused = c.Action == "pause"
		}
	}
	s.hello.State = s.state
	s.broadcast(s.state)
}

// viewRoot is the character's root at time t on a path (see viewPaths):
//
//   - stand: at the origin, facing +Z;
//   - walk: a circle of radius 1.5 m at 1.3 m/s, facing where it goes;
//   - sprint: along +Z up to 6 m/s, a sudden stop, a half turn, the same
//     back, every 8 s;
//   - turn: on the spot, a full turn in 1.5 s, then 1 s still;
//   - teleport: 2 s at the origin, 2 s 3 m to the side turned a quarter,
//     jumping between them.
func viewRoot(path string, t float64) sway.Transform {
	yaw := func(pos mgl32.Vec3, a float64) sway.Transform {
		r := sway.At(pos)
		r.Rot = mgl32.QuatRotate(float32(a), mgl32.Vec3{0, 1, 0})
		return r
	}
	switch path {
	case "walk":
		const radius, speed = 1.5, 1.3
		th := speed * t / radius
		// Counter-clockwise seen from above, starting at the origin
		// facing +Z.
		return yaw(mgl32.Vec3{float32(radius * (1 - math.Cos(th))), 0, float32(radius * math.Sin(th))}, th)
	case "sprint":
		const vmax, accel, run, brake = 6.0, 1.0, 1.0, 0.25 // m/s; seconds speeding up, at full speed, stopping
		dist := func(u float64) float64 {                   // metres covered u seconds into a run
			switch {
			case u < accel:
				return vmax / accel * u * u / 2
			case u < accel+run:
				return vmax*accel/2 + vmax*(u-accel)
			case u < accel+run+brake:
				v := u - accel - run
				return vmax*accel/2 + vmax*run + vmax*v - vmax/brake*v*v/2
			}
			return vmax*accel/2 + vmax*run + vmax*brake/2
		}
		const half = 4.0
		u := math.Mod(t, 2*half)
		leg, u := int(u/half), math.Mod(u, half)
		total := dist(half)
		turn := math.Min(1, math.Max(0, (u-3)/1)) // the last second: a half turn on the spot
		turn = turn * turn * (3 - 2*turn)
		if leg == 0 {
			return yaw(mgl32.Vec3{0, 0, float32(dist(u))}, math.Pi*turn)
		}
		return yaw(mgl32.Vec3{0, 0, float32(total - dist(u))}, math.Pi*(1+turn))
	case "turn":
		u := math.Mod(t, 2.5)
		f := math.Min(1, u/1.5)
		f = f * f * (3 - 2*f)
		return yaw(mgl32.Vec3{}, 2*math.Pi*f)
	case "teleport":
		if int(t/2)%2 == 1 {
			return yaw(mgl32.Vec3{3, 0, 0}, math.Pi/2)
		}
		return yaw(mgl32.Vec3{}, 0)
	}
	return sway.Identity()
}

// playFirstAnimation plays the file's first animation on e, looping, in
// place of the rest pose (the demo avatar's "Walk"); a file without
// animations keeps its rest pose.
func playFirstAnimation(w *sway.World, e arche.Entity, r *sway.Rig, skel *sway.Skeleton) error {
	if len(r.Animations) == 0 {
		return nil
	}
	desc, err := r.Clip(0, skel, true)
	if err != nil {
		return err
	}
	clip, err := w.AddClip(desc)
	if err != nil {
		return err
	}
	space, err := w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.Blend1D, Clips: []sway.ClipID{clip}, Thresholds: []float32{0}})
	if err != nil {
		return err
	}
	_, err = w.Animation().Add(e, space, sway.DefaultAnimSettings())
	return err
}
