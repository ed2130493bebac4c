// Pointer chasing through a linked list stored in an array of nodes (indices as
// links): every thread follows `hops` dependent links from its start node and
// sums the payloads on the way. Latency-bound.
struct Node {
  int next;
  int payload;
};
extern "C" __global__ void pointer_chase(const Node *nodes, const int *start, int *out, int hops,
                                         int nthreads) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nthreads)
    return;
  int p = start[i];
  int sum = 0;
  for (int h = 0; h < hops; ++h) {
    sum += nodes[p].payload;
    p = nodes[p].next;
  }
  out[i] = sum ^ p;
}
