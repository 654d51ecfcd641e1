module github.com/sway-anim/sway

go 1.24

require github.com/go-gl/mathgl v1.2.0
