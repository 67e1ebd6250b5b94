# Layout: comments, blank lines, continuation, tabs, form feeds, semicolons.


x = 1 + \
    2 + \
	3

if x:
	a = 1  # a tab-indented block
	if a:
		b = 2
  
	# a comment at another indentation
        # and another
	c = 3

def f(a,
      b,
  c):
    return (a +
b +
        c)

y = [
    1,
    2,  # comment inside brackets

    3,
]
z = {'a':
     1}

class C:  # trailing comment
    pass
    # comment before dedent
# comment at column 0

def g():
    pass
x = 1; y = 2  # two statements
if x: pass
