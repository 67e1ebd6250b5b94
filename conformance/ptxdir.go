package conformance

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/tileir"
)

// PTXDir serves the PTX that DumpPTX wrote into a folder, so that a device can load
// PTX made elsewhere (by llc-22, on a machine that has it) instead of compiling its own.
//
// The runner still compiles each kernel to tile IR (that needs no llc) and hands the
// module to Device.Load, which knows neither the file nor the signature. Attach wraps
// the runner's compile step to remember, for each module it returns, the specialization
// key; Find turns the module back into that key, the dump's file and its launch metadata.
type PTXDir struct {
	// Dir is the dump folder; Target the target its PTX was made for ("cuda:90:32").
	Dir, Target string

	entries map[string]ptxEntry // by file name
	failed  []ptxEntry          // specializations the dump could not compile (no file)
	mu      sync.Mutex
	pending map[*tileir.Module]pendingSpec
}

type ptxEntry struct {
	file, kernel, sig string
	warps, stages     int
	status            string
	meta              PTXMeta
}

type pendingSpec struct {
	name, kernel, sig string
	warps, stages     int
}

// OpenPTXDir reads dir/index.tsv as DumpPTX wrote it.
func OpenPTXDir(dir string) (*PTXDir, error) {
	f, err := os.Open(filepath.Join(dir, "index.tsv"))
	if err != nil {
		return nil, fmt.Errorf("PTX folder %s: %v (make it with gotriton conformance --dump-ptx %s [--via-llc])", dir, err, dir)
	}
	defer f.Close()
	p := &PTXDir{Dir: dir, entries: map[string]ptxEntry{}, pending: map[*tileir.Module]pendingSpec{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		cols := strings.Split(sc.Text(), "\t")
		if line == 1 {
			if sc.Text() != indexHeader {
				return nil, fmt.Errorf("%s/index.tsv: not an index of this gotriton's --dump-ptx (header %q); dump it again", dir, sc.Text())
			}
			continue
		}
		if len(cols) != 14 {
			return nil, fmt.Errorf("%s/index.tsv:%d: %d columns, want 14", dir, line, len(cols))
		}
		maps, err := parseTensorMaps(cols[13])
		if err != nil {
			return nil, fmt.Errorf("%s/index.tsv:%d: column 14: %v", dir, line, err)
		}
		var n [6]int
		for i, c := range []int{4, 5, 9, 10, 11, 12} {
			if n[i], err = strconv.Atoi(cols[c]); err != nil {
				return nil, fmt.Errorf("%s/index.tsv:%d: column %d: %v", dir, line, c+1, err)
			}
		}
		if p.Target == "" {
			p.Target = cols[8]
		} else if cols[8] != p.Target {
			return nil, fmt.Errorf("%s/index.tsv:%d: target %s, but earlier lines have %s", dir, line, cols[8], p.Target)
		}
		e := ptxEntry{file: cols[1], kernel: cols[2], sig: cols[3], warps: n[0], stages: n[1], status: cols[6],
			meta: PTXMeta{NumWarps: n[2], SharedBytes: n[3], GlobalScratchBytes: n[4], ProfileScratchBytes: n[5], TensorMaps: maps}}
		if cols[0] == "" {
			// A specialization that failed to compile has no file; Find reports its error.
			p.failed = append(p.failed, e)
			continue
		}
		p.entries[cols[0]] = e
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s/index.tsv: %v", dir, err)
	}
	return p, nil
}

// Len is the number of PTX files the index lists.
func (p *PTXDir) Len() int { return len(p.entries) }

// Attach makes r's compile step record the specialization of every module it returns
// (r's Compile, or SemanticCompile when nil, still does the compiling). Call it once r's
// KernelsDir and TutorialsDir are set.
func (p *PTXDir) Attach(r *Runner) {
	compile := r.Compile
	if compile == nil {
		compile = SemanticCompile()
	}
	r.Compile = func(path, kernel string, opts semantic.Options) (*tileir.Module, error) {
		m, err := compile(path, kernel, opts)
		if err != nil {
			return nil, err
		}
		key := r.specKey(path, kernel, opts.SignatureText, opts.NumWarps, opts.NumStages)
		p.mu.Lock()
		p.pending[m] = pendingSpec{name: ptxName(kernel, key), kernel: kernel, sig: opts.SignatureText, warps: opts.NumWarps, stages: opts.NumStages}
		p.mu.Unlock()
		return m, nil
	}
}

// Find returns the dumped PTX and launch metadata for a module that the attached
// compile step returned. Every failure names the specialization and the file expected.
func (p *PTXDir) Find(m *tileir.Module) (string, PTXMeta, error) {
	p.mu.Lock()
	spec, ok := p.pending[m]
	delete(p.pending, m)
	p.mu.Unlock()
	if !ok {
		return "", PTXMeta{}, errors.New("--ptx-dir: module was not compiled through the PTX folder's compile step (PTXDir.Attach)")
	}
	what := fmt.Sprintf("%s [%s] num_warps=%d num_stages=%d", spec.kernel, spec.sig, spec.warps, spec.stages)
	e, ok := p.entries[spec.name]
	if !ok {
		for _, f := range p.failed {
			if f.kernel == spec.kernel && f.sig == spec.sig && f.warps == spec.warps && f.stages == spec.stages {
				return "", PTXMeta{}, fmt.Errorf("--ptx-dir: no PTX for %s in %s: the dump failed: %s", what, p.Dir, f.status)
			}
		}
		return "", PTXMeta{}, fmt.Errorf("--ptx-dir: no PTX for %s in %s (expected %s; dump it with the same --run filter, or none, and the same kernel sources)", what, p.Dir, spec.name)
	}
	if e.status != "ok" {
		return "", PTXMeta{}, fmt.Errorf("--ptx-dir: %s for %s: the dump failed: %s", spec.name, what, e.status)
	}
	if e.kernel != spec.kernel || e.sig != spec.sig || e.warps != spec.warps || e.stages != spec.stages {
		return "", PTXMeta{}, fmt.Errorf("--ptx-dir: %s in %s/index.tsv is %s [%s] w=%d s=%d, not %s", spec.name, p.Dir, e.kernel, e.sig, e.warps, e.stages, what)
	}
	text, err := readMaybeGzip(filepath.Join(p.Dir, spec.name))
	if err != nil {
		return "", PTXMeta{}, fmt.Errorf("--ptx-dir: PTX for %s: %v", what, err)
	}
	return text, e.meta, nil
}

// readMaybeGzip reads path, or path+".gz" when only that exists (gzip -r DIR on the dump
// folder is fine).
func readMaybeGzip(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		return string(b), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	f, gzErr := os.Open(path + ".gz")
	if gzErr != nil {
		return "", err // report the plain name
	}
	defer f.Close()
	zr, gzErr := gzip.NewReader(f)
	if gzErr != nil {
		return "", fmt.Errorf("%s.gz: %v", path, gzErr)
	}
	b, gzErr = io.ReadAll(zr)
	if gzErr != nil {
		return "", fmt.Errorf("%s.gz: %v", path, gzErr)
	}
	return string(b), nil
}
