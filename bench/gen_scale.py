#!/usr/bin/env python3
"""Write a Graph JSON chain of N ADD nodes for the scale benchmarks (issue 18).

usage: gen_scale.py NODES OUT.json [LIVE_EVERY]
Tensor 0 is the graph input, tensor 1 a constant; node i adds tensor i+1 (tensor 0 for i = 0)
and the constant into tensor i+2. Every LIVE_EVERY-th node output (default 10) and the last one
are graph outputs, so they stay live to the end of the plan.
"""
import sys


def write_chain(nodes, out_path, live_every=10):
    act = '"bytes":4096,"alloc":"arena_rw","type":"float32","shape":[1,32,32,1]'
    with open(out_path, "w") as f:
        f.write('{"format":"tflite-analyze-graph/1",\n"tensors":[\n')
        f.write('{"name":"input",%s},\n' % act)
        f.write('{"name":"c","bytes":4,"alloc":"mmap_ro","type":"float32","shape":[1]}')
        for i in range(nodes):
            f.write(',\n{"name":"t%d",%s}' % (i, act))
        f.write('],\n"nodes":[\n')
        for i in range(nodes):
            src = 0 if i == 0 else i + 1
            sep = "" if i == 0 else ",\n"
            f.write('%s{"op":"ADD","inputs":[%d,1],"outputs":[%d],"temporaries":[],'
                    '"inplace":12,"side_effect":false}' % (sep, src, i + 2))
        live = [i + 2 for i in range(nodes) if (i + 1) % live_every == 0 or i == nodes - 1]
        f.write('],\n"inputs":[0],"outputs":[%s],"variables":[]}\n' % ",".join(map(str, live)))


if __name__ == "__main__":
    write_chain(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 10)
