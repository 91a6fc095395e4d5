// CPU reference for axpy: y = a*x + y, computed in double.
void axpy_ref(int n, float a, const float* x, float* y) {
  for (int i = 0; i < n; ++i) y[i] = static_cast<float>(static_cast<double>(a) * x[i] + y[i]);
}
