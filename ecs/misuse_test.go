package sway_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems"
)

// plainReads are the World methods that are not calls: they read what
// does not change during a frame and answer always, on a closed world and
// during Step (a system may call them).
var plainReads = map[string]bool{"ECS": true, "Pipeline": true, "Time": true, "Workers": true, "Entity": true}

// noErrorAnswers is what the calls that return no error answer for an
// entity that is not a live character of the world, on a closed world and
// during another goroutine's call: their zero value. A new method that
// returns no error must be listed here (or in plainReads) with what it
// answers, or the tests below fail.
var noErrorAnswers = map[string]any{
	"IsCharacter":   false,
	"NumCharacters": 0,
	"Len":           0,
	"Checksum":      uint64(0),
}

var (
	entityType = reflect.TypeOf(arche.Entity{})
	errorType  = reflect.TypeOf((*error)(nil)).Elem()
)

// worldMethods returns every exported method of *World, found by
// reflection so that a method added later is checked too.
func worldMethods() []reflect.Method {
	t := reflect.TypeOf(&sway.World{})
	ms := make([]reflect.Method, t.NumMethod())
	for i := range ms {
		ms[i] = t.Method(i)
	}
	return ms
}

// callable is a method to call: one of the World's, a feature's (Add), or
// a feature handle's, got with Of for the entity under test.
type callable struct {
	name   string // as a CallError names it: "Step", "Chains.Add", "Chains.Pause"
	recv   reflect.Value
	m      reflect.Method
	handle bool // the entity under test is the handle's
}

// calls returns every method a game can call on w: the World's own, and
// through each feature (World.Chains, World.IK, ...) its Add and the
// methods of its handle on e. Found by reflection, so that a method or
// feature added later is checked too.
func calls(w *sway.World, e arche.Entity) []callable {
	wv := reflect.ValueOf(w)
	var out []callable
	for _, m := range worldMethods() {
		if m.Type.NumIn() == 1 && m.Type.NumOut() == 1 && strings.HasSuffix(m.Type.Out(0).Name(), "Feature") {
			f := m.Func.Call([]reflect.Value{wv})[0]
			for i := range f.Type().NumMethod() {
				fm := f.Type().Method(i)
				if fm.Name != "Of" {
					out = append(out, callable{m.Name + "." + fm.Name, f, fm, false})
					continue
				}
				h := fm.Func.Call([]reflect.Value{f, reflect.ValueOf(e)})[0]
				for j := range h.Type().NumMethod() {
					out = append(out, callable{m.Name + "." + h.Type().Method(j).Name, h, h.Type().Method(j), true})
				}
			}
			continue
		}
		out = append(out, callable{m.Name, wv, m, false})
	}
	return out
}

// entityParams is how many entities c takes: its parameters, and the
// handle's own.
func entityParams(c callable) int {
	n := 0
	if c.handle {
		n++
	}
	for i := 1; i < c.m.Type.NumIn(); i++ {
		if c.m.Type.In(i) == entityType {
			n++
		}
	}
	return n
}

// callArgs are usable values for every parameter that is not an entity,
// so that a call which is not refused does what it says (a valid
// skeleton, transform, dt and feature settings).
type callArgs struct {
	skel *sway.Skeleton
	leg  sway.IKLimb
}

func (a *callArgs) value(t reflect.Type) reflect.Value {
	switch t {
	case reflect.TypeOf(sway.Transform{}):
		return reflect.ValueOf(sway.Identity())
	case reflect.TypeOf(mgl32.Quat{}):
		return reflect.ValueOf(mgl32.QuatIdent())
	case reflect.TypeOf(a.skel):
		return reflect.ValueOf(a.skel)
	case reflect.TypeOf(float32(0)):
		return reflect.ValueOf(float32(1.0 / 60))
	case reflect.TypeOf(sway.ChainSettings{}):
		return reflect.ValueOf(sway.DefaultChainSettings())
	case reflect.TypeOf(sway.BreathSettings{}):
		return reflect.ValueOf(sway.BreathFor(a.skel))
	case reflect.TypeOf(sway.LookAtSettings{}):
		return reflect.ValueOf(sway.LookAtFor(a.skel))
	case reflect.TypeOf([]sway.IKLimb{}):
		return reflect.ValueOf([]sway.IKLimb{a.leg})
	case reflect.TypeOf([]sway.ChainSpec{}):
		return reflect.ValueOf(scene.ChainSpecs(newRand(1)))
	case reflect.TypeOf([]sway.ColliderSpec{}):
		return reflect.ValueOf(scene.Colliders())
	case reflect.TypeOf([]sway.VRMSpringSpec{}):
		return reflect.ValueOf(scene.VRMSpecs(newRand(1)))
	}
	return reflect.Zero(t)
}

// call calls c with ents for its entity parameters (in order, a
// handle's first; the last one repeats) and returns its results, or the
// panic it raised.
func (a *callArgs) call(c callable, ents ...arche.Entity) (out []reflect.Value, panicked any) {
	defer func() { panicked = recover() }()
	m := c.m
	in := []reflect.Value{c.recv}
	k := 0
	if c.handle {
		k++
	}
	for i := 1; i < m.Type.NumIn(); i++ {
		if t := m.Type.In(i); t == entityType {
			in = append(in, reflect.ValueOf(ents[min(k, len(ents)-1)]))
			k++
		} else {
			in = append(in, a.value(t))
		}
	}
	if m.Type.IsVariadic() {
		return m.Func.CallSlice(in), nil
	}
	return m.Func.Call(in), nil
}

// returnedError is m's error result, and whether it has one.
func returnedError(m reflect.Method, out []reflect.Value) (error, bool) {
	n := m.Type.NumOut()
	if n == 0 || m.Type.Out(n-1) != errorType {
		return nil, false
	}
	err, _ := out[n-1].Interface().(error)
	return err, true
}

// checkRefused checks that a call that must not run did not panic and
// answered as documented: an error matching want, or, for a call that
// returns no error, its listed answer. It returns the error.
func checkRefused(t *testing.T, what string, m reflect.Method, out []reflect.Value, panicked any, want error) error {
	t.Helper()
	if panicked != nil {
		t.Errorf("%s: %s panicked: %v", what, m.Name, panicked)
		return nil
	}
	err, ok := returnedError(m, out)
	if !ok {
		answer, listed := noErrorAnswers[m.Name]
		switch {
		case plainReads[m.Name]:
		case !listed:
			t.Errorf("%s: %s returns no error and is not in noErrorAnswers: decide what it answers", what, m.Name)
		case !reflect.DeepEqual(out[0].Interface(), answer):
			t.Errorf("%s: %s = %v, want %v", what, m.Name, out[0].Interface(), answer)
		}
		return nil
	}
	if !errors.Is(err, want) {
		t.Errorf("%s: %s returned %v, want an error matching %q", what, m.Name, err, want)
	}
	return err
}

// misuseWorld is a world of one character with every feature a method
// can need (look-at and IK for the target setters), and a second world
// with more entities, whose last character's ID the first world never
// handed out.
func misuseWorld(t *testing.T) (w *sway.World, live arche.Entity, args *callArgs, foreign arche.Entity) {
	w, ents, sc := plainWorld(t, 1, 1)
	live = ents[0]
	leg, err := sway.IKLimbFor(sc.Skeleton, "upper_leg.L", "lower_leg.L", "foot.L")
	must(t, err)
	must(t, addErr(w.LookAt().Add(live, sway.LookAtFor(sc.Skeleton))))
	must(t, addErr(w.IK().Add(live, leg)))
	other, _, _ := plainWorld(t, 1, 1)
	t.Cleanup(func() { must(t, other.Close()) })
	for range 200 {
		other.ECS().NewEntity()
	}
	foreign, err = other.AddCharacter(sc.Skeleton, sway.Identity())
	must(t, err)
	return w, live, &callArgs{skel: sc.Skeleton, leg: leg}, foreign
}

// Every World method, given an entity that is not a live character of
// the world (another world's, a removed one, one whose ID a new character
// reuses, the game's own entity, the zero entity), returns an
// *EntityError naming the entity and the reason, or answers false or 0;
// none panics. Before, 56 of the 58 methods that take an entity panicked
// on another world's entity (arche indexed past its entities).
func TestEveryMethodRejectsEntitiesItCannotUse(t *testing.T) {
	w, live, args, foreign := misuseWorld(t)
	defer w.Close()
	removed, err := w.AddCharacter(args.skel, sway.Identity())
	must(t, err)
	must(t, w.RemoveCharacter(removed))
	removedByArche, err := w.AddCharacter(args.skel, sway.Identity())
	must(t, err)
	w.ECS().RemoveEntity(removedByArche)
	reused, err := w.AddCharacter(args.skel, sway.Identity())
	must(t, err)
	if reused.ID() != removedByArche.ID() {
		t.Fatalf("the new character has ID %d, not the removed one's %d: the case does not test reuse", reused.ID(), removedByArche.ID())
	}
	var own arche.Entity
	for range 50 { // the game's own entities, past every character's ID
		own = w.ECS().NewEntity()
	}
	if own.ID() <= reused.ID() || foreign.ID() <= own.ID() {
		t.Fatalf("IDs: foreign %d, last character %d, the game's %d: the cases do not test what they say", foreign.ID(), reused.ID(), own.ID())
	}
	cases := []struct {
		name   string
		e      arche.Entity
		reason error
	}{
		{"another world's entity", foreign, sway.ErrForeignEntity},
		{"an entity removed with RemoveCharacter", removed, sway.ErrRemovedEntity},
		{"an entity removed with arche's RemoveEntity, its ID reused", removedByArche, sway.ErrRemovedEntity},
		{"the game's own entity", own, sway.ErrNotCharacter},
		{"the zero entity", arche.Entity{}, sway.ErrNotCharacter},
	}
	before := w.Checksum()
	tested := 0
	for _, c := range cases {
		// The bad entity in every entity parameter, then (for the target
		// setters) only in the later ones.
		for _, ents := range [][]arche.Entity{{c.e}, {live, c.e}} {
			for _, call := range calls(w, ents[0]) {
				m, n := call.m, entityParams(call)
				if n == 0 || (len(ents) > 1 && n == 1) {
					continue
				}
				what := fmt.Sprintf("%s, in %d of %d entity parameters of %s", c.name, n-len(ents)+1, n, call.name)
				out, panicked := args.call(call, ents...)
				err := checkRefused(t, what, m, out, panicked, c.reason)
				var ee *sway.EntityError
				if err != nil && (!errors.As(err, &ee) || ee.Entity != c.e || ee.Reason != c.reason || !errors.Is(err, sway.ErrNotCharacter)) {
					t.Errorf("%s: %s returned %#v, want an *EntityError for %v with Reason %q that matches ErrNotCharacter", what, m.Name, err, c.e, c.reason)
				}
				tested++
			}
		}
	}
	if tested < 5*65 {
		t.Fatalf("%d calls tested; the World has fewer methods taking an entity than expected", tested)
	}
	if w.Checksum() != before || !w.IsCharacter(live) || !w.IsCharacter(reused) || w.NumCharacters() != 2 {
		t.Fatal("a refused call changed the world")
	}
}

// After Close every call returns a *CallError with ErrClosed, or its zero
// value; Close again returns nil. Before, AddCharacter, SetRoot and others
// went on as if the world were open.
func TestEveryMethodRefusesAClosedWorld(t *testing.T) {
	w, live, args, _ := misuseWorld(t)
	must(t, w.Close())
	for _, c := range calls(w, live) {
		m := c.m
		out, panicked := args.call(c, live)
		if m.Name == "Close" {
			if panicked != nil || !out[0].IsNil() {
				t.Errorf("Close on a closed world: %v, panic %v; want nil", out[0], panicked)
			}
			continue
		}
		err := checkRefused(t, "closed world", m, out, panicked, sway.ErrClosed)
		var ce *sway.CallError
		if err != nil && (!errors.As(err, &ce) || ce.Method != c.name) {
			t.Errorf("closed world: %s returned %#v, want a *CallError naming %s", c.name, err, c.name)
		}
	}
}

// blocker is a system that holds Step midway until released.
type blocker struct {
	entered, release chan struct{}
	armed            bool
}

func (b *blocker) Initialize(*arche.World) {}
func (b *blocker) Finalize(*arche.World)   {}
func (b *blocker) Update(*arche.World) {
	if b.armed {
		b.armed = false
		b.entered <- struct{}{}
		<-b.release
	}
}

// A call made while Step runs on another goroutine returns a *CallError
// with ErrConcurrentCall (or its zero value) and changes nothing: the
// world, once Step returns, steps on to the same poses as a twin nobody
// disturbed. Before, the calls ran into the frame (a character added, a
// root moved, a Step inside a Step).
func TestOverlappingCallsAreRefused(t *testing.T) {
	run := func(disturb bool) uint64 {
		w, live, args, _ := misuseWorld(t)
		defer w.Close()
		must(t, addErr(w.Chains().Add(live, scene.Colliders(), scene.ChainSpecs(newRand(3)))))
		b := &blocker{entered: make(chan struct{}), release: make(chan struct{})}
		w.Pipeline().Add(systems.PhaseProcedural, "test.block", b)
		for f := 0; f < 3; f++ {
			must(t, w.Step(1.0/60))
		}
		b.armed = true
		var wg sync.WaitGroup
		var stepErr error
		wg.Add(1)
		go func() {
			defer wg.Done()
			stepErr = w.Step(1.0 / 60)
		}()
		<-b.entered
		if disturb {
			for _, c := range calls(w, live) {
				out, panicked := args.call(c, live)
				err := checkRefused(t, "during Step", c.m, out, panicked, sway.ErrConcurrentCall)
				var ce *sway.CallError
				if err != nil && (!errors.As(err, &ce) || ce.Method != c.name) {
					t.Errorf("during Step: %s returned %#v, want a *CallError naming %s", c.name, err, c.name)
				}
			}
		}
		close(b.release)
		wg.Wait()
		must(t, stepErr)
		for f := 0; f < 10; f++ {
			must(t, w.SetRoot(live, sway.At(mgl32.Vec3{0.02 * float32(f), 0, 0})))
			must(t, w.Step(1.0/60))
		}
		if n := w.NumCharacters(); n != 1 {
			t.Fatalf("%d characters after the frame, want 1", n)
		}
		return w.Checksum()
	}
	if a, b := run(false), run(true); a != b {
		t.Fatalf("checksum %x after the calls during Step, %x without them", b, a)
	}
}

// NewWorld and Attach refuse bad options with a *FieldError and no
// world, and a failed Attach leaves the arche world as it was. Before,
// NewWorld returned a nil world for Workers: -1, whose next call
// panicked, and took any worker count: 1e6 workers took 3 GB and 2^40
// ended the process.
func TestNewWorldRejectsBadOptions(t *testing.T) {
	for _, o := range []sway.Options{
		{Workers: -1}, {Workers: sway.MaxWorkers + 1}, {Workers: 1e6}, {Workers: math.MaxInt}, {Characters: -1},
	} {
		w, err := sway.NewWorld(o)
		var fe *sway.FieldError
		if w != nil || !errors.As(err, &fe) || !errors.Is(err, sway.ErrInvalid) {
			t.Errorf("NewWorld(%+v) = %v, %v; want no world and a *FieldError", o, w, err)
		}
		a := arche.NewWorld()
		if w, err := sway.Attach(&a, o); w != nil || !errors.As(err, &fe) {
			t.Errorf("Attach(%+v) = %v, %v; want no world and a *FieldError", o, w, err)
		}
		w, err = sway.Attach(&a, sway.Options{Workers: 1})
		if err != nil {
			t.Fatalf("Attach after a refused Attach: %v", err)
		}
		must(t, w.Close())
	}
	w, err := sway.NewWorld(sway.Options{Workers: sway.MaxWorkers})
	must(t, err)
	defer w.Close()
	if n := w.Workers(); n != sway.MaxWorkers {
		t.Fatalf("Workers() = %d, want MaxWorkers (%d)", n, sway.MaxWorkers)
	}
	for _, n := range []int{-1, sway.MaxWorkers + 1, math.MaxInt} {
		var fe *sway.FieldError
		if err := w.SetWorkers(n); !errors.As(err, &fe) {
			t.Errorf("SetWorkers(%d) = %v, want a *FieldError", n, err)
		}
	}
	must(t, w.SetWorkers(2))
	if n := w.Workers(); n != 2 {
		t.Fatalf("Workers() = %d after SetWorkers(2)", n)
	}
}
