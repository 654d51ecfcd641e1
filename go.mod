module github.com/sway-anim/sway

go 1.26.0

require (
	github.com/go-gl/mathgl v1.2.0
	github.com/mlange-42/arche v0.15.3
	github.com/mlange-42/arche-model v0.10.0
	golang.org/x/sync v0.24.0
)

require golang.org/x/exp v0.0.0-20230418202329-0354be287a23 // indirect
