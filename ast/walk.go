package ast

import "reflect"

// Inspect traverses the tree rooted at n in source order: it calls f(node) for each node,
// and when f returns true, visits the node's children and then calls f(nil), as go/ast's
// Inspect does. Operators and expression contexts are not nodes here.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || reflect.ValueOf(n).IsNil() || !f(n) {
		return
	}
	v := reflect.ValueOf(n).Elem()
	for i := 0; i < v.NumField(); i++ {
		inspectValue(v.Field(i), f)
	}
	f(nil)
}

func inspectValue(v reflect.Value, f func(Node) bool) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return
		}
		if n, ok := v.Interface().(Node); ok {
			Inspect(n, f)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			inspectValue(v.Index(i), f)
		}
	}
}
