package sway_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sway-anim/sway/ecs"
)

// facadeFiles parses the facade's own files (no tests).
func facadeFiles(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	must(t, err)
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		must(t, err)
		files = append(files, f)
	}
	return fset, files
}

// The facade's exported types are its own or public packages' types: no
// exported alias names a type of an internal package, whose methods and
// field docs a user could not read (go doc shows an alias bare).
func TestFacadeExportsNoInternalType(t *testing.T) {
	fset, files := facadeFiles(t)
	checked := 0
	for _, f := range files {
		imports := map[string]string{} // local name -> path
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			name := path[strings.LastIndex(path, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = path
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				if !ts.Name.IsExported() || !ts.Assign.IsValid() {
					continue
				}
				checked++
				sel, ok := ts.Type.(*ast.SelectorExpr)
				if !ok {
					continue
				}
				pkg := imports[sel.X.(*ast.Ident).Name]
				if strings.Contains(pkg, "/internal/") {
					t.Errorf("%s: %s is an alias of %s.%s, a type of an internal package", fset.Position(ts.Pos()), ts.Name, pkg, sel.Sel)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no exported alias found: the test reads nothing")
	}
}

// go doc shows a type's methods: Skeleton, Rig and the feature handles are
// declared here with theirs.
func TestFacadeTypesDocumentTheirMethods(t *testing.T) {
	fset, files := facadeFiles(t)
	p, err := doc.NewFromFiles(fset, files, "github.com/sway-anim/sway/ecs")
	must(t, err)
	methods := map[string][]string{}
	for _, ty := range p.Types {
		for _, m := range ty.Methods {
			methods[ty.Name] = append(methods[ty.Name], m.Name)
		}
	}
	for typ, want := range map[string][]string{
		"Skeleton": {"Index", "NumBones", "BoneName", "Parents", "SubtreeEnd", "RestPos", "RestRot", "RestScale", "ModelPos", "ModelRot", "ModelScale", "Name"},
		"Rig":      {"HumanBone"},
		"Skin":     {"Name", "NumJoints", "JointBone", "InverseBind"},
		"Chains":   {"Pause", "Resume", "Paused", "Reset", "Weight", "SetWeight", "Remove", "Entity", "Settings", "SetSettings", "SetTeleport", "Faults", "Len"},
		"VRMSprings": {"Pause", "Resume", "Reset", "SetWeight", "Remove", "JointSettings", "SetSpringSettings", "SetJointSettings",
			"Teleport", "SetTeleport", "Faults", "Len"},
		"SimpleSprings": {"Pause", "Resume", "Reset", "SetWeight", "Remove", "Settings", "SetSettings", "Teleport", "SetTeleport", "Faults", "Len"},
		"Breath":        {"Pause", "Resume", "Reset", "SetWeight", "Remove", "State", "SetSettings"},
		"LookAt":        {"Pause", "Resume", "Reset", "SetWeight", "Remove", "SetTarget", "SetTargetBone", "Target"},
		"IK":            {"Pause", "Resume", "Reset", "SetWeight", "Remove", "SetTarget", "SetTargetBone", "SetLimbWeight", "Reached", "Len"},
		"Animation":     {"Pause", "Resume", "Reset", "SetWeight", "Remove", "Play", "SetBlendParam", "SetSpeed", "State", "BlendWeights"},
	} {
		have := strings.Join(methods[typ], " ")
		for _, m := range want {
			if !strings.Contains(" "+have+" ", " "+m+" ") {
				t.Errorf("go doc %s lists %q, not %s", typ, have, m)
			}
		}
	}
}

// World keeps world-level calls: at most 40 methods (it had 73, one set
// per feature, before features became handles).
func TestWorldStaysSmall(t *testing.T) {
	n := reflect.TypeOf(&sway.World{}).NumMethod()
	if n > 40 {
		t.Fatalf("World has %d methods; at most 40: a feature's calls belong on its handle", n)
	}
	t.Logf("World has %d methods", n)
}
