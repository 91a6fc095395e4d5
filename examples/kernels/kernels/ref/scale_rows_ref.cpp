// CPU reference for scale_rows: out[r, c] = scale[r] * inp[r, c]. It omits the
// launcher's tunable block_size and its stream.
#include <cstddef>

void scale_rows_ref(float* out, const float* inp, const float* scale, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const std::size_t i = static_cast<std::size_t>(r) * cols + c;
      out[i] = static_cast<float>(static_cast<double>(scale[r]) * inp[i]);
    }
}
