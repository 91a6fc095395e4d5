// CPU reference for reduce_sum: out[0] = sum of inp[0, n), accumulated in double.
void reduce_sum_ref(float* out, const float* inp, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += inp[i];
  out[0] = static_cast<float>(s);
}
