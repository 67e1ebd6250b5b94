//go:build !(linux && (amd64 || arm64))

package cuda

import "runtime"

// bind reports that this build cannot load the CUDA driver: the driver is loaded without
// cgo only on 64-bit Linux.
func bind(*api) error {
	return &NoDriverError{Reason: "not supported on " + runtime.GOOS + "/" + runtime.GOARCH}
}
