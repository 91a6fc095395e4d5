// CPU reference for transpose: out [cols, rows] = inp [rows, cols]^T.
#include <cstddef>

void transpose_ref(float* out, const float* inp, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      out[static_cast<std::size_t>(c) * rows + r] = inp[static_cast<std::size_t>(r) * cols + c];
}
