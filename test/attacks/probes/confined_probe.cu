// Device probe for issue 13 class 6: the confined operand shapes atoll-mem emits
// (member mask | %lanemask_eq, barrier id & 15) with hostile masks, in full and
// partial warps. nvcc -arch=sm_90 -O2 -o q confined_probe.cu && ./q
#include <cstdio>
__device__ unsigned lm(){unsigned l;asm volatile("mov.u32 %0, %%lanemask_eq;":"=r"(l));return l;}
__global__ void k(unsigned all,unsigned zero,unsigned id,unsigned*out){
 unsigned l=threadIdx.x&31,v=threadIdx.x,r=0,x;
 unsigned e=(all^(1u<<l))|lm(), z=zero|lm();
 asm volatile("barrier.sync %0;"::"r"(id&15));
 asm volatile("shfl.sync.idx.b32 %0,%1,0,0x1f,%2;":"=r"(x):"r"(v),"r"(e));r+=x;
 asm volatile("shfl.sync.bfly.b32 %0,%1,1,0x1f,%2;":"=r"(x):"r"(v),"r"(z));r+=x;
 asm volatile("{.reg .pred p;setp.ne.u32 p,%1,0;vote.sync.ballot.b32 %0,p,%2;}":"=r"(x):"r"(v&1),"r"(e));r+=x;
 asm volatile("match.any.sync.b32 %0,%1,%2;":"=r"(x):"r"(v&3),"r"(e));r+=x;
 asm volatile("redux.sync.add.u32 %0,%1,%2;":"=r"(x):"r"(v),"r"(e));r+=x;
 asm volatile("redux.sync.max.u32 %0,%1,%2;":"=r"(x):"r"(v),"r"(z));r+=x;
 asm volatile("bar.warp.sync %0;"::"r"(e));
 asm volatile("bar.warp.sync %0;"::"r"(z));
 out[blockIdx.x*blockDim.x+threadIdx.x]=r;}
int main(){unsigned*o;cudaMalloc(&o,1<<20);int T[]={32,48,128,100,1};
for(int t:T){k<<<4,t>>>(0xffffffffu,0,0xffffffffu,o);cudaError_t e=cudaDeviceSynchronize();unsigned h[2];cudaMemcpy(h,o,8,cudaMemcpyDeviceToHost);
printf("confined warp primitives, 4 CTAs x %d threads, masks all^self|self and 0|self, barrier id 0xffffffff&15: %s out[0..1]=%u %u\n",t,cudaGetErrorName(e),h[0],h[1]);}}
