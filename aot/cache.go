package aot

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Cache is a content-addressed store of compiled kernels: one folder per key, holding
// the kernel's PTX, its lowering metadata and, under a key that adds the ptxas version,
// its cubin. A folder is written under a temporary name and renamed into place, so a
// reader sees a complete entry or none, and processes filling the same cache at once
// never see each other's half-written files (the first rename wins; the others' identical
// results are dropped).
type Cache struct {
	Dir string
}

// DefaultCacheDir is $GOTRITON_CACHE_DIR, else gotriton/ in the user's cache folder
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux).
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("GOTRITON_CACHE_DIR"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder (set GOTRITON_CACHE_DIR, or pass --no-cache): %v", err)
	}
	return filepath.Join(d, "gotriton"), nil
}

// entryDir is the folder of key.
func (c *Cache) entryDir(key string) string { return filepath.Join(c.Dir, key[:2], key) }

// Get returns the files of key's entry, or ok false when there is none.
func (c *Cache) Get(key string, names ...string) (files map[string][]byte, ok bool) {
	files = map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(c.entryDir(key), n))
		if err != nil {
			return nil, false
		}
		files[n] = b
	}
	return files, true
}

// Put stores files as key's entry. An entry already there is kept: equal keys mean
// equal contents.
func (c *Cache) Put(key string, files map[string][]byte) error {
	final := c.entryDir(key)
	if _, err := os.Stat(final); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return fmt.Errorf("cache: %v", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(final), ".tmp-"+key[:8]+"-")
	if err != nil {
		return fmt.Errorf("cache: %v", err)
	}
	defer os.RemoveAll(tmp) // left only when the rename lost or failed
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(tmp, n), b, 0o644); err != nil {
			return fmt.Errorf("cache: %v", err)
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		if _, statErr := os.Stat(final); statErr == nil {
			return nil // another process stored the same entry first
		}
		return fmt.Errorf("cache: %v", err)
	}
	return nil
}

// The files of the cache entries.
const (
	ptxFile  = "kernel.ptx"
	metaFile = "lower.json"
	binFile  = "kernel.cubin"
)

// putResult stores a compile's PTX and lowering metadata under key.
func (c *Cache) putResult(key, ptx string, meta any) error {
	m, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	return c.Put(key, map[string][]byte{ptxFile: []byte(ptx), metaFile: m})
}
