//go:build !amd64 || purego

package fk

// runOrder is the Go kernel on this platform.
var runOrder = runOrderGo

// asmKernel tells tests that runOrder is the Go kernel.
const asmKernel = false
