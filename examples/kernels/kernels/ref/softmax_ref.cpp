// CPU reference for softmax and softmax_slow: row softmax of [rows, cols], in double.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

void softmax_ref(float* out, const float* inp, int rows, int cols) {
  for (int r = 0; r < rows; ++r) {
    const float* x = inp + static_cast<std::size_t>(r) * cols;
    float* y = out + static_cast<std::size_t>(r) * cols;
    double m = -std::numeric_limits<double>::infinity();
    for (int c = 0; c < cols; ++c) m = std::max(m, static_cast<double>(x[c]));
    double s = 0.0;
    for (int c = 0; c < cols; ++c) s += std::exp(x[c] - m);
    for (int c = 0; c < cols; ++c) y[c] = static_cast<float>(std::exp(x[c] - m) / s);
  }
}
