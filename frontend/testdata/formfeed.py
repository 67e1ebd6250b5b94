x = 1

def f():
    pass
# form feeds
