// CPU reference for a row softmax over [rows, cols], in double.
#include <cmath>
#include <cstddef>

void softmax_ref(float* out, const float* inp, int rows, int cols) {
  for (int r = 0; r < rows; ++r) {
    const float* x = inp + static_cast<std::size_t>(r) * cols;
    float* y = out + static_cast<std::size_t>(r) * cols;
    double mx = -INFINITY;
    for (int c = 0; c < cols; ++c) mx = std::fmax(mx, static_cast<double>(x[c]));
    double sum = 0.0;
    for (int c = 0; c < cols; ++c) sum += std::exp(x[c] - mx);
    for (int c = 0; c < cols; ++c) y[c] = static_cast<float>(std::exp(x[c] - mx) / sum);
  }
}
