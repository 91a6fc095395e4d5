// CPU reference for relu: out = max(inp, 0).
void relu_ref(float* out, const float* inp, int n) {
  for (int i = 0; i < n; ++i) out[i] = inp[i] > 0.0f ? inp[i] : 0.0f;
}
