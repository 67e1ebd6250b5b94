//go:build linux && (amd64 || arm64)

package cuda

import (
	"fmt"

	"github.com/ebitengine/purego"
	"github.com/gotriton/gotriton/driver"
)

// libraryName is the CUDA driver library that the NVIDIA kernel driver installs.
const libraryName = "libcuda.so.1"

// bind opens libcuda.so.1 with dlopen and binds every entry point of a. A missing
// library is a *NoDriverError; a missing required symbol (a driver too old) is an error
// that names it.
func bind(a *api) error {
	h, err := driver.Dlopen(libraryName, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return &NoDriverError{Reason: err.Error()}
	}
	for _, s := range a.symbols() {
		var addr uintptr
		for _, name := range s.names {
			if addr, err = purego.Dlsym(h, name); err == nil {
				break
			}
		}
		switch {
		case addr != 0:
			purego.RegisterFunc(s.fptr, addr)
		case !s.optional:
			return fmt.Errorf("cuda: %s does not export %s; the NVIDIA driver is too old", libraryName, s.names[0])
		}
	}
	return nil
}
