//go:build linux && (amd64 || arm64)

package driver

import (
	"runtime"

	"github.com/ebitengine/purego"
)

// Dlopen opens the shared library path with dlopen's mode flags. The goroutine stays on
// one OS thread for the call, so that the loader's message, which dlerror keeps per
// thread, is the one for this dlopen (a goroutine moved between the two calls read an
// empty message).
func Dlopen(path string, mode int) (uintptr, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return purego.Dlopen(path, mode)
}
