// The bounds of the [llm] table and of what an LLM answers, each written once; messages are
// formatted from them and docs/llm.md lists them.
#pragma once

#include <cstddef>

namespace kblaster {

inline constexpr std::size_t kMaxModelNameLength = 256;
inline constexpr std::size_t kMaxBaseUrlLength = 2048;
inline constexpr std::size_t kMaxKeyVariableLength = 128;
inline constexpr std::size_t kMaxCommandWords = 64;
inline constexpr std::size_t kMaxCommandWordLength = 4096;
inline constexpr std::size_t kMaxPricedModels = 256;
inline constexpr double kMaxPricePerMtok = 10'000;  // USD per million tokens
inline constexpr double kMaxTemperature = 2;        // OpenAI's; Anthropic's is 1
inline constexpr double kMaxAnthropicTemperature = 1;
inline constexpr int kMaxAnswerTokens = 1'000'000;
inline constexpr double kMaxLlmTimeoutSeconds = 3600;
inline constexpr int kMaxInFlight = 64;
inline constexpr int kMaxRepairAttempts = 10;

// Bytes of a command backend's stdout; more kills it and is an error.
inline constexpr std::size_t kMaxCommandAnswerBytes = 4 << 20;
// Levels of arrays and objects nested in an answer's JSON; the APIs' answers nest fewer than 6.
inline constexpr std::size_t kMaxAnswerDepth = 32;

}  // namespace kblaster
