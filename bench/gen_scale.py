#!/usr/bin/env python3
"""Write the Graph JSON graphs of the scale benchmarks (issues 18 and 46).

usage: gen_scale.py NODES OUT.json [LIVE_EVERY]            few partitions: an ADD chain
       gen_scale.py --alternating NODES OUT.json [SEED]    a partition per two nodes
       gen_scale.py --random-dag NODES OUT.json [SEED]     a delegate claims a random half

chain (write_chain): tensor 0 is the graph input, tensor 1 a constant; node i adds tensor i+1
(tensor 0 for i = 0) and the constant into tensor i+2. Every LIVE_EVERY-th node output (default
10) and the last one are graph outputs, so they stay live to the end of the plan. Under
`--delegate ops=ADD` the whole chain is one partition.

alternating chain (write_alternating_chain, issue 46): node i reads node i-1's output (the graph
input for i = 0) and, with probability 0.3, the output of node i-3, else the constant; it writes
one arena tensor of 1 kB to 100 kB. Node i is ADD when i is even and MUL when odd, so under
`--delegate ops=ADD` every node is a partition of its own: about NODES / 2 delegate partitions.
Every 10th output and the last one are graph outputs.

random DAG (write_random_dag, issue 46): node i is ADD or MUL at random (one half each), so
`--delegate ops=ADD` claims a random half of the nodes. It reads one of the 8 outputs before it
and, with probability 0.5, one of the 64 before it (else the constant); it writes one arena
tensor of 1 kB to 100 kB. Every 10th output and the last one are graph outputs. Greedy
clustering joins the claimed nodes into about NODES / 17 delegate partitions.

The random graphs are the same for the same NODES and SEED (default 46).
"""
import random
import sys

ACTIVATION = '"bytes":4096,"alloc":"arena_rw","type":"float32","shape":[1,32,32,1]'


def write_chain(nodes, out_path, live_every=10):
    with open(out_path, "w") as f:
        f.write('{"format":"tflite-analyze-graph/1",\n"tensors":[\n')
        f.write('{"name":"input",%s},\n' % ACTIVATION)
        f.write('{"name":"c","bytes":4,"alloc":"mmap_ro","type":"float32","shape":[1]}')
        for i in range(nodes):
            f.write(',\n{"name":"t%d",%s}' % (i, ACTIVATION))
        f.write('],\n"nodes":[\n')
        for i in range(nodes):
            src = 0 if i == 0 else i + 1
            sep = "" if i == 0 else ",\n"
            f.write('%s{"op":"ADD","inputs":[%d,1],"outputs":[%d],"temporaries":[],'
                    '"inplace":12,"side_effect":false}' % (sep, src, i + 2))
        live = [i + 2 for i in range(nodes) if (i + 1) % live_every == 0 or i == nodes - 1]
        f.write('],\n"inputs":[0],"outputs":[%s],"variables":[]}\n' % ",".join(map(str, live)))


def _write_graph(out_path, nodes, rng, op_of, inputs_of):
    """Tensor 0 the graph input, tensor 1 a constant, tensor i+2 node i's output (1-100 kB).

    `op_of(i)` names node i's op; `inputs_of(i)` lists the nodes whose outputs it reads (-1: the
    graph input, None: the constant).
    """
    def tensor_of(node):
        if node is None:
            return 1
        return 0 if node == -1 else node + 2

    with open(out_path, "w") as f:
        f.write('{"format":"tflite-analyze-graph/1",\n"tensors":[\n')
        f.write('{"name":"input",%s},\n' % ACTIVATION)
        f.write('{"name":"c","bytes":4,"alloc":"mmap_ro","type":"float32","shape":[1]}')
        for i in range(nodes):
            elements = rng.randint(256, 25600)
            f.write(',\n{"name":"t%d","bytes":%d,"alloc":"arena_rw","type":"float32",'
                    '"shape":[1,%d]}' % (i, elements * 4, elements))
        f.write('],\n"nodes":[\n')
        for i in range(nodes):
            sep = "" if i == 0 else ",\n"
            inputs = ",".join(str(tensor_of(n)) for n in inputs_of(i))
            f.write('%s{"op":"%s","inputs":[%s],"outputs":[%d],"temporaries":[],'
                    '"inplace":12,"side_effect":false}' % (sep, op_of(i), inputs, i + 2))
        live = [i + 2 for i in range(nodes) if (i + 1) % 10 == 0 or i == nodes - 1]
        f.write('],\n"inputs":[0],"outputs":[%s],"variables":[]}\n' % ",".join(map(str, live)))


def write_alternating_chain(nodes, out_path, seed=46):
    rng = random.Random(seed)
    skips = [i >= 3 and rng.random() < 0.3 for i in range(nodes)]
    _write_graph(out_path, nodes, rng, lambda i: "MUL" if i % 2 else "ADD",
                 lambda i: [i - 1, i - 3 if skips[i] else None])


def write_random_dag(nodes, out_path, seed=46):
    rng = random.Random(seed)
    ops = ["ADD" if rng.random() < 0.5 else "MUL" for _ in range(nodes)]
    first = [rng.randint(max(i - 8, 0), i) - 1 for i in range(nodes)]
    second = [rng.randint(max(i - 64, 0), i) - 1 if rng.random() < 0.5 else None
              for i in range(nodes)]
    _write_graph(out_path, nodes, rng, lambda i: ops[i], lambda i: [first[i], second[i]])


if __name__ == "__main__":
    if sys.argv[1] in ("--alternating", "--random-dag"):
        write = write_alternating_chain if sys.argv[1] == "--alternating" else write_random_dag
        write(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 46)
    else:
        write_chain(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 10)
