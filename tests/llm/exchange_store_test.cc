#include "llm/exchange_store.h"

#include <gtest/gtest.h>

#include <deque>

#include "llm/exchange_recording.h"
#include "llm/exchange_replay.h"
#include "llm/request_json.h"
#include "test_paths.h"

namespace kblaster {
namespace {

// A model that answers from a script, in order, and counts its calls.
class ScriptedModel final : public LlmBackend {
 public:
  explicit ScriptedModel(std::deque<Result<LlmAnswer>> answers) : answers_(std::move(answers)) {}
  Result<LlmAnswer> complete(const LlmRequest&) override {
    ++calls;
    if (answers_.empty()) return Error::internal("the script has no more answers");
    auto next = std::move(answers_.front());
    answers_.pop_front();
    return next;
  }
  std::string_view name() const override { return "command"; }
  int calls = 0;

 private:
  std::deque<Result<LlmAnswer>> answers_;
};

LlmRequest request(std::string user) {
  LlmRequest r;
  r.purpose = "apply";
  r.system = "You are a CUDA engineer.";
  r.messages.push_back({.role = "user", .content = std::move(user)});
  return r;
}

LlmAnswer answer(std::string text) {
  return {.text = std::move(text),
          .model = "scripted-1",
          .stop_reason = "stop",
          .usage = {.input = 120, .output = 45},
          .seconds = 1.5};
}

std::vector<std::string> files_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(PromptHash, IsTheSha256OfTheCanonicalRequestAndSeesEveryField) {
  const auto r = request("rewrite");
  EXPECT_EQ(canonical_request_json(r),
            R"({"max_tokens":4096,"messages":[{"content":"rewrite","role":"user"}],)"
            R"("purpose":"apply","system":"You are a CUDA engineer.","temperature":0.2})");
  const auto hash = prompt_hash(r);
  ASSERT_TRUE(hash.ok());
  EXPECT_EQ(hash->size(), 64u);
  auto hotter = r;
  hotter.temperature = 0.7;
  auto other_purpose = r;
  other_purpose.purpose = "repair";
  EXPECT_NE(*prompt_hash(hotter), *hash);
  EXPECT_NE(*prompt_hash(other_purpose), *hash);
  EXPECT_EQ(*prompt_hash(request("rewrite")), *hash);
}

TEST(ExchangeStore, RecordThenReplayGivesTheSameAnswerWithoutTheModel) {
  testing::TempDir dir;
  const auto run = dir.path() / "run/llm";
  ScriptedModel model({answer("```cuda\nvoid axpy() {}\n```"), answer("VERDICT: yes\nok")});
  RecordingBackend recording(model, ExchangeStore(run));
  EXPECT_EQ(recording.name(), "command");
  const auto first = recording.complete(request("apply the technique"));
  ASSERT_TRUE(first.ok()) << first.error().describe();
  auto review = request("review it");
  review.purpose = "review";
  ASSERT_TRUE(recording.complete(review).ok());
  EXPECT_EQ(model.calls, 2);
  EXPECT_EQ(files_in(run).size(), 2u);

  const auto stored = nlohmann::json::parse(
      testing::read_text(run / (*prompt_hash(request("apply the technique")) + ".json")));
  for (const auto* key : {"request", "answer", "backend", "model", "usage", "seconds"})
    EXPECT_TRUE(stored.contains(key)) << key;
  EXPECT_EQ(stored["backend"], "command");

  ReplayBackend replay{ExchangeStore(run)};
  EXPECT_EQ(replay.name(), "replay");
  const auto again = replay.complete(request("apply the technique"));
  ASSERT_TRUE(again.ok()) << again.error().describe();
  EXPECT_EQ(again->text, first->text);
  EXPECT_EQ(again->model, "scripted-1");
  EXPECT_EQ(again->usage.input, 120);
  EXPECT_EQ(again->usage.output, 45);
  EXPECT_DOUBLE_EQ(again->seconds, 1.5);
  EXPECT_EQ(replay.complete(review)->text, "VERDICT: yes\nok");
  EXPECT_EQ(model.calls, 2);  // the replay never asked the model
}

TEST(ExchangeStore, AChangedPromptMissesAndTheErrorNamesItsHashAndPurpose) {
  testing::TempDir dir;
  ScriptedModel model({answer("a")});
  RecordingBackend recording(model, ExchangeStore(dir.path()));
  ASSERT_TRUE(recording.complete(request("apply float4")).ok());
  ReplayBackend replay{ExchangeStore(dir.path())};
  const auto changed = request("apply float2");
  const auto missed = replay.complete(changed);
  ASSERT_FALSE(missed.ok());
  EXPECT_EQ(missed.error().kind, ErrorKind::usage);
  EXPECT_NE(missed.error().message.find(*prompt_hash(changed)), std::string::npos)
      << missed.error().message;
  EXPECT_NE(missed.error().message.find("apply prompt"), std::string::npos);
}

TEST(ExchangeStore, TheSamePromptAskedTwiceReplaysBothAnswersInOrder) {
  testing::TempDir dir;
  ScriptedModel model({answer("first"), answer("second")});
  RecordingBackend recording(model, ExchangeStore(dir.path()));
  ASSERT_EQ(recording.complete(request("same"))->text, "first");
  ASSERT_EQ(recording.complete(request("same"))->text, "second");
  const auto hash = *prompt_hash(request("same"));
  EXPECT_EQ(files_in(dir.path()), (std::vector<std::string>{hash + "-2.json", hash + ".json"}));
  ReplayBackend replay{ExchangeStore(dir.path())};
  EXPECT_EQ(replay.complete(request("same"))->text, "first");
  EXPECT_EQ(replay.complete(request("same"))->text, "second");
  const auto third = replay.complete(request("same"));
  ASSERT_FALSE(third.ok());
  EXPECT_NE(third.error().message.find("asked 3 times"), std::string::npos);
}

TEST(ExchangeStore, ARemoteFailureIsRecordedAndReplayedAsTheSameFailure) {
  testing::TempDir dir;
  ScriptedModel model({Error::remote("openai: the answer was empty")});
  RecordingBackend recording(model, ExchangeStore(dir.path()));
  const auto failed = recording.complete(request("x"));
  ASSERT_FALSE(failed.ok());
  ReplayBackend replay{ExchangeStore(dir.path())};
  const auto again = replay.complete(request("x"));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().kind, ErrorKind::remote);
  EXPECT_EQ(again.error().message, "openai: the answer was empty");
}

TEST(ExchangeStore, WritesAreWholeFilesWithNoTemporaryLeft) {
  testing::TempDir dir;
  const ExchangeStore store(dir.path());
  const auto hash = *prompt_hash(request("x"));
  Exchange e{.request = request("x"),
             .answer = answer(std::string(100000, 'a')),
             .failure = {},
             .backend = "command"};
  ASSERT_TRUE(store.save(e, hash, 1).ok());
  e.answer = answer("short");
  ASSERT_TRUE(store.save(e, hash, 1).ok());  // replaced whole, not overwritten in place
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{hash + ".json"});
  const auto loaded = store.load(hash, 1);
  ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
  ASSERT_TRUE(loaded->has_value());
  EXPECT_EQ((*loaded)->answer->text, "short");
}

TEST(ExchangeStore, AStoreThatCannotBeWrittenFailsTheCallNamingThePath) {
  testing::TempDir dir;
  const auto file = dir.write("not-a-dir", "x");
  ScriptedModel model({answer("a")});
  RecordingBackend recording(model, ExchangeStore(file / "llm"));
  const auto result = recording.complete(request("x"));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find(file.string()), std::string::npos)
      << result.error().message;
}

TEST(ExchangeStore, DamagedOrMisplacedFilesAreUsageErrorsNamingThem) {
  testing::TempDir dir;
  const ExchangeStore store(dir.path());
  const auto hash = *prompt_hash(request("x"));
  dir.write(hash + ".json", "{\"request\": ");
  auto loaded = store.load(hash, 1);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().kind, ErrorKind::usage);
  EXPECT_NE(loaded.error().message.find(hash + ".json: not JSON"), std::string::npos);

  // Another prompt's exchange under this hash's name.
  Exchange other{
      .request = request("y"), .answer = answer("a"), .failure = {}, .backend = "command"};
  ASSERT_TRUE(store.save(other, hash, 1).ok());
  loaded = store.load(hash, 1);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("not the one its name gives"), std::string::npos);

  dir.write(hash + ".json", R"({"request": {"purpose": 3}})");
  loaded = store.load(hash, 1);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("`purpose`"), std::string::npos);
}

}  // namespace
}  // namespace kblaster
