//go:build !(linux && (amd64 || arm64))

package hip

import "runtime"

// bind reports that this build cannot load the HIP runtime: it is loaded without cgo only
// on 64-bit Linux.
func bind(_ *api, paths []string) error {
	return &NoRuntimeError{Tried: paths, Reason: "not supported on " + runtime.GOOS + "/" + runtime.GOARCH}
}
