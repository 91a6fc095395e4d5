// CPU reference for layernorm over [N, C] (eps = 1e-5), in double.
#include <cmath>
#include <cstddef>

void layernorm_ref(float* out, const float* inp, const float* weight, const float* bias, int N,
                   int C) {
  for (int n = 0; n < N; ++n) {
    const float* x = inp + static_cast<std::size_t>(n) * C;
    float* y = out + static_cast<std::size_t>(n) * C;
    double mean = 0.0;
    for (int c = 0; c < C; ++c) mean += x[c];
    mean /= C;
    double var = 0.0;
    for (int c = 0; c < C; ++c) var += (x[c] - mean) * (x[c] - mean);
    var /= C;
    const double rstd = 1.0 / std::sqrt(var + 1e-5);
    for (int c = 0; c < C; ++c)
      y[c] = static_cast<float>((x[c] - mean) * rstd * weight[c] + bias[c]);
  }
}
