// Package kernelspecs reads conformance/kernels/specs.json: the specializations of our own
// kernel corpus (kernel file, kernel, signature, launch options) that tests compile.
package kernelspecs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Spec is one specialization of a kernel of the corpus.
type Spec struct {
	File      string `json:"file"`
	Kernel    string `json:"kernel"`
	Variant   string `json:"variant"`
	Signature string `json:"signature"`
	NumWarps  int    `json:"num_warps"`
	NumStages int    `json:"num_stages"`
	Grid      string `json:"grid"`
	Note      string `json:"note"`
}

// Name is "<file stem>.<kernel>.<variant>", the name golden files use.
func (s Spec) Name() string {
	return strings.TrimSuffix(s.File, ".py") + "." + s.Kernel + "." + s.Variant
}

// Load reads dir/specs.json, where dir is the corpus folder (conformance/kernels).
func Load(dir string) ([]Spec, error) {
	data, err := os.ReadFile(filepath.Join(dir, "specs.json"))
	if err != nil {
		return nil, err
	}
	var specs []Spec
	if err := json.Unmarshal(data, &specs); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "specs.json"), err)
	}
	return specs, nil
}
