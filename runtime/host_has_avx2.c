/* Exit status 0 when the CPU that runs it has AVX2 (runtime/CMakeLists.txt asks). */
int main(void) { return __builtin_cpu_supports("avx2") ? 0 : 1; }
