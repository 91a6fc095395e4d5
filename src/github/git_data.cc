#include "github/git_data.h"

#include <array>

#include "core/base64.h"
#include "github/url_component.h"

namespace kblaster {
namespace {

using nlohmann::json;

// The string at `key` (and `inner`, when given) of `reply`'s body; Error::remote naming the
// call and the field when it is not there.
Result<std::string> answered(const GitHubApi& api, const GitHubReply& reply,
                             std::string_view method, std::string_view path, const char* key,
                             const char* inner = nullptr) {
  const json* at = reply.body.is_object() && reply.body.contains(key) ? &reply.body[key] : nullptr;
  if (at && inner) at = at->is_object() && at->contains(inner) ? &(*at)[inner] : nullptr;
  if (!at || !at->is_string())
    return Error::remote("GitHub call " + std::string(method) + " " + api.url(path) +
                         " answered without `" + key + (inner ? std::string(".") + inner : "") +
                         "`");
  return at->get<std::string>();
}

constexpr std::array<int, 1> kNotFound = {404};
constexpr std::array<int, 1> kUnprocessable = {422};

// "heads/kblaster/optimize/x" as one path segment.
std::string head_ref(const std::string& branch) { return url_component("heads/" + branch); }

}  // namespace

Result<std::string> default_branch(GitHubApi& api) {
  auto reply = api.call(HttpMethod::get, "");
  if (!reply) return reply.error();
  return answered(api, *reply, "GET", "", "default_branch");
}

Result<BranchSnapshot> read_branch(GitHubApi& api, const std::string& branch) {
  BranchSnapshot snapshot{.branch = branch, .commit = {}, .tree = {}, .files = {}};
  const std::string ref_path = "git/ref/" + head_ref(branch);
  auto ref = api.call(HttpMethod::get, ref_path, nullptr, kNotFound);
  if (!ref) return ref.error();
  if (ref->status == 404)
    return Error::usage("branch `" + branch + "` does not exist in " + api.target().owner + "/" +
                        api.target().repo);
  auto commit = answered(api, *ref, "GET", ref_path, "object", "sha");
  if (!commit) return commit.error();
  snapshot.commit = *commit;
  const std::string commit_path = "git/commits/" + snapshot.commit;
  auto commit_reply = api.call(HttpMethod::get, commit_path);
  if (!commit_reply) return commit_reply.error();
  auto tree = answered(api, *commit_reply, "GET", commit_path, "tree", "sha");
  if (!tree) return tree.error();
  snapshot.tree = *tree;
  const std::string tree_path = "git/trees/" + snapshot.tree + "?recursive=1";
  auto listing = api.call(HttpMethod::get, tree_path);
  if (!listing) return listing.error();
  const json& body = listing->body;
  if (!body.is_object() || !body.contains("tree") || !body["tree"].is_array())
    return Error::remote("GitHub call GET " + api.url(tree_path) + " answered without `tree`");
  if (body.value("truncated", false) == true)
    return Error::remote("GitHub lists the tree of " + branch + " (" + snapshot.tree +
                         ") only in part: it is too large to read in one call");
  for (const json& entry : body["tree"]) {
    if (!entry.is_object() || entry.value("type", "") != "blob") continue;
    if (!entry.contains("path") || !entry["path"].is_string() || !entry.contains("sha") ||
        !entry["sha"].is_string())
      continue;
    snapshot.files[entry["path"].get<std::string>()] = {
        .sha = entry["sha"].get<std::string>(),
        .mode = entry.contains("mode") && entry["mode"].is_string()
                    ? entry["mode"].get<std::string>()
                    : "100644"};
  }
  return snapshot;
}

Result<std::string> read_blob(GitHubApi& api, const std::string& sha) {
  const std::string path = "git/blobs/" + sha;
  auto reply = api.call(HttpMethod::get, path);
  if (!reply) return reply.error();
  auto content = answered(api, *reply, "GET", path, "content");
  if (!content) return content.error();
  if (reply->body.value("encoding", "base64") != "base64") return *content;
  auto bytes = base64_decode(*content);
  if (!bytes)
    return Error::remote("GitHub call GET " + api.url(path) +
                         " answered content that is not base64");
  return *bytes;
}

Result<std::string> commit_to_branch(GitHubApi& api, const BranchSnapshot& base,
                                     const std::vector<FileWrite>& files,
                                     const std::string& message, const std::string& branch) {
  json entries = json::array();
  for (const FileWrite& f : files) {
    auto blob = api.call(HttpMethod::post, "git/blobs",
                         {{"content", base64_encode(f.content)}, {"encoding", "base64"}});
    if (!blob) return blob.error();
    auto sha = answered(api, *blob, "POST", "git/blobs", "sha");
    if (!sha) return sha.error();
    entries.push_back({{"path", f.path}, {"mode", f.mode}, {"type", "blob"}, {"sha", *sha}});
  }
  auto tree =
      api.call(HttpMethod::post, "git/trees", {{"base_tree", base.tree}, {"tree", entries}});
  if (!tree) return tree.error();
  auto tree_sha = answered(api, *tree, "POST", "git/trees", "sha");
  if (!tree_sha) return tree_sha.error();
  auto commit = api.call(
      HttpMethod::post, "git/commits",
      {{"message", message}, {"tree", *tree_sha}, {"parents", json::array({base.commit})}});
  if (!commit) return commit.error();
  auto commit_sha = answered(api, *commit, "POST", "git/commits", "sha");
  if (!commit_sha) return commit_sha.error();

  // Created when missing; otherwise, or when a concurrent run created it first, moved.
  auto existing = api.call(HttpMethod::get, "git/ref/" + head_ref(branch), nullptr, kNotFound);
  if (!existing) return existing.error();
  if (existing->status == 404) {
    auto created =
        api.call(HttpMethod::post, "git/refs",
                 {{"ref", "refs/heads/" + branch}, {"sha", *commit_sha}}, kUnprocessable);
    if (!created) return created.error();
    if (created->status != 422) return *commit_sha;
    if (created->body.dump().find("already exists") == std::string::npos)
      return Error::remote("GitHub call POST " + api.url("git/refs") +
                           " answered 422: " + created->body.dump());
  }
  auto moved = api.call(HttpMethod::patch, "git/refs/" + head_ref(branch),
                        {{"sha", *commit_sha}, {"force", true}});
  if (!moved) return moved.error();
  return *commit_sha;
}

}  // namespace kblaster
