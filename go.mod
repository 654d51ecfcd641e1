module github.com/sway-anim/sway

go 1.26.0

require github.com/go-gl/mathgl v1.2.0

require (
	github.com/mlange-42/arche v0.15.3 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
