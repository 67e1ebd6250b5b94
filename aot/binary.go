package aot

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Binary is the kernel code a launcher embeds.
type Binary struct {
	// Data is a cubin, or PTX text with a final NUL (cuModuleLoadData compiles it).
	Data []byte
	// Kind is "cubin" or "ptx".
	Kind string
	// Tool is the ptxas that made a cubin and its version line, "" for PTX.
	Tool string
}

// FindPtxas returns the ptxas to use: path when given, else ptxas on PATH, else "" (the
// launcher then embeds PTX for the driver to compile). The path "none" asks for PTX.
func FindPtxas(path string) (string, error) {
	if path == "none" {
		return "", nil
	}
	if path != "" {
		p, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("--ptxas %s: %v", path, err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("ptxas"); err == nil {
		return p, nil
	}
	return "", nil
}

// PtxasVersion is the last line of `ptxas --version` ("Cuda compilation tools, release
// 13.0, V13.0.48"), which the cache key includes.
func PtxasVersion(ptxas string) (string, error) {
	out, err := exec.Command(ptxas, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %v", ptxas, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return ptxas + ": " + lines[len(lines)-1], nil
}

// Assemble turns PTX for arch (sm_90a) into a cubin with ptxas, or, when ptxas is "",
// returns the PTX itself NUL-terminated. Without fpFusion (Triton's
// enable_fp_fusion=False) ptxas gets --fmad=false, as Triton gives it, so that it does not
// contract the PTX's multiplies and adds either.
func Assemble(ptx, arch, ptxas string, fpFusion bool) (*Binary, error) {
	if ptxas == "" {
		return &Binary{Data: append([]byte(ptx), 0), Kind: "ptx"}, nil
	}
	version, err := PtxasVersion(ptxas)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "gotriton-ptxas-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	src, bin := filepath.Join(dir, "kernel.ptx"), filepath.Join(dir, "kernel.cubin")
	if err := os.WriteFile(src, []byte(ptx), 0o644); err != nil {
		return nil, err
	}
	args := []string{"-lineinfo", "--gpu-name=" + arch, src, "-o", bin}
	if !fpFusion {
		args = append([]string{"--fmad=false"}, args...)
	}
	cmd := exec.Command(ptxas, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v: %s", ptxas, err, strings.TrimSpace(stderr.String()))
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		return nil, err
	}
	return &Binary{Data: data, Kind: "cubin", Tool: version}, nil
}
