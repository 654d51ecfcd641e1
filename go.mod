module github.com/sway-anim/sway

go 1.26.0

require (
	github.com/go-gl/mathgl v1.2.0
	github.com/mlange-42/arche v0.15.3
	github.com/mlange-42/arche-model v0.10.0
	github.com/qmuntal/gltf v0.29.0
	github.com/schollz/progressbar/v3 v3.19.0
	golang.org/x/sync v0.24.0
	golang.org/x/term v0.28.0
)

require (
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/exp v0.0.0-20230418202329-0354be287a23 // indirect
	golang.org/x/sys v0.29.0 // indirect
)
