// CPU reference for matmul_naive: C = A * B, row-major, accumulated in double.
// The loops run i-k-j so the inner loop streams rows of B and C.
#include <algorithm>
#include <cstddef>
#include <vector>

void matmul_ref(const float* A, const float* B, float* C, int M, int N, int K) {
  std::vector<double> row(static_cast<std::size_t>(N));
  for (int i = 0; i < M; ++i) {
    std::fill(row.begin(), row.end(), 0.0);
    for (int k = 0; k < K; ++k) {
      const double a = A[static_cast<std::size_t>(i) * K + k];
      const float* b = B + static_cast<std::size_t>(k) * N;
      for (int j = 0; j < N; ++j) row[j] += a * b[j];
    }
    for (int j = 0; j < N; ++j) C[static_cast<std::size_t>(i) * N + j] = static_cast<float>(row[j]);
  }
}
