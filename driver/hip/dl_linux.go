//go:build linux && (amd64 || arm64)

package hip

import (
	"fmt"

	"github.com/ebitengine/purego"
	"github.com/gotriton/gotriton/driver"
)

// bind opens the first of paths that dlopen accepts and binds every entry point of a. No
// loadable library is a *NoRuntimeError; a missing symbol (a runtime too old) is an error
// that names it.
func bind(a *api, paths []string) error {
	var h uintptr
	var first error
	var path string
	for _, p := range paths {
		var err error
		if h, err = driver.Dlopen(p, purego.RTLD_NOW|purego.RTLD_LOCAL); err == nil {
			path = p
			break
		}
		if first == nil {
			first = err
		}
	}
	if h == 0 {
		return &NoRuntimeError{Tried: paths, Reason: first.Error()}
	}
	for _, s := range a.symbols() {
		addr, err := purego.Dlsym(h, s.name)
		if err != nil {
			return fmt.Errorf("hip: %s does not export %s; the HIP runtime is too old (ROCm 6 or newer is needed)", path, s.name)
		}
		purego.RegisterFunc(s.fptr, addr)
	}
	return nil
}
