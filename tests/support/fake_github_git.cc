// FakeGitHub's git data routes: blobs, trees (with base_tree), commits and refs, the
// way an optimization PR is built without a clone.
#include <openssl/evp.h>

#include <cstdio>

#include "support/fake_github_state.h"

namespace kblaster::testing {

namespace {

using nlohmann::json;

const char* kGitDocs = "https://docs.github.com/rest/git";

// The object id git gives `content` as an object of `type`.
std::string git_hash(const std::string& type, const std::string& content) {
  const std::string object = type + " " + std::to_string(content.size()) + '\0' + content;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(object.data(), object.size(), digest, &size, EVP_sha1(), nullptr);
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    char byte[3];
    std::snprintf(byte, sizeof byte, "%02x", digest[i]);
    hex += byte;
  }
  return hex;
}

const std::string kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::optional<std::string> base64_decode(const std::string& text) {
  std::string out;
  int bits = 0, value = 0;
  for (char c : text) {
    if (c == '=' || c == '\n' || c == '\r') continue;
    const auto at = kBase64.find(c);
    if (at == std::string::npos) return std::nullopt;
    value = (value << 6) | static_cast<int>(at);
    if ((bits += 6) >= 8) out += static_cast<char>((value >> (bits -= 8)) & 0xff);
  }
  return out;
}

std::string base64_encode(const std::string& bytes) {
  std::string out;
  int bits = 0, value = 0;
  for (unsigned char c : bytes) {
    value = (value << 8) | c;
    for (bits += 8; bits >= 6; bits -= 6) out += kBase64[(value >> (bits - 6)) & 0x3f];
  }
  if (bits > 0) out += kBase64[(value << (6 - bits)) & 0x3f];
  while (out.size() % 4) out += '=';
  return out;
}

json ref_json(const FakeGitHubState& state, const std::string& ref, const std::string& sha) {
  return {{"ref", ref},
          {"node_id", "REF_kwDO" + sha.substr(0, 12)},
          {"url", state.api_root() + "/git/" + ref},
          {"object",
           {{"type", "commit"}, {"sha", sha}, {"url", state.api_root() + "/git/commits/" + sha}}}};
}

json tree_json(const FakeGitHubState& state, const std::string& sha) {
  json entries = json::array();
  for (const auto& [path, e] : state.trees.at(sha)) {
    json entry = {{"path", path},
                  {"mode", e.mode},
                  {"type", e.type},
                  {"sha", e.sha},
                  {"url", state.api_root() + "/git/blobs/" + e.sha}};
    if (auto blob = state.blobs.find(e.sha); blob != state.blobs.end())
      entry["size"] = blob->second.size();
    entries.push_back(entry);
  }
  return {{"sha", sha},
          {"url", state.api_root() + "/git/trees/" + sha},
          {"tree", entries},
          {"truncated", false}};
}

json commit_json(const FakeGitHubState& state, const FakeCommit& c) {
  const json person = {{"name", "github-actions[bot]"},
                       {"email", "41898282+github-actions[bot]@users.noreply.github.com"},
                       {"date", github_time(c.time)}};
  json parents = json::array();
  for (const auto& p : c.parents)
    parents.push_back(
        {{"sha", p},
         {"url", state.api_root() + "/git/commits/" + p},
         {"html_url", state.site.web_url + "/" + state.repo.full_name() + "/commit/" + p}});
  return {{"sha", c.sha},
          {"node_id", "C_kwDO" + c.sha.substr(0, 12)},
          {"url", state.api_root() + "/git/commits/" + c.sha},
          {"html_url", state.site.web_url + "/" + state.repo.full_name() + "/commit/" + c.sha},
          {"author", person},
          {"committer", person},
          {"tree", {{"sha", c.tree}, {"url", state.api_root() + "/git/trees/" + c.tree}}},
          {"message", c.message},
          {"parents", parents},
          {"verification",
           {{"verified", false},
            {"reason", "unsigned"},
            {"signature", nullptr},
            {"payload", nullptr},
            {"verified_at", nullptr}}}};
}

// Whether `ancestor` is `sha` or reachable from it through parents.
bool reaches(const FakeGitHubState& state, const std::string& sha, const std::string& ancestor) {
  std::vector<std::string> todo = {sha};
  while (!todo.empty()) {
    const std::string at = todo.back();
    todo.pop_back();
    if (at == ancestor) return true;
    if (auto c = state.commits.find(at); c != state.commits.end())
      todo.insert(todo.end(), c->second.parents.begin(), c->second.parents.end());
  }
  return false;
}

Reply create_blob(FakeGitHubState& state, const Call& call) {
  if (!call.body.is_object() || !call.body.contains("content") || !call.body["content"].is_string())
    return invalid("Blob", "content", "missing_field", kGitDocs);
  std::string content = call.body["content"];
  if (call.body.value("encoding", "utf-8") == "base64") {
    auto decoded = base64_decode(content);
    if (!decoded) return problem(422, "Invalid Base64 content", kGitDocs);
    content = *decoded;
  }
  const std::string sha = put_blob(state, content);
  return {.status = 201, .body = {{"sha", sha}, {"url", state.api_root() + "/git/blobs/" + sha}}};
}

Reply get_blob(FakeGitHubState& state, const Call& call) {
  auto blob = state.blobs.find(call.params[0]);
  if (blob == state.blobs.end()) return not_found();
  return {.body = {{"sha", blob->first},
                   {"node_id", "B_kwDO" + blob->first.substr(0, 12)},
                   {"url", state.api_root() + "/git/blobs/" + blob->first},
                   {"size", blob->second.size()},
                   {"encoding", "base64"},
                   {"content", base64_encode(blob->second)}}};
}

// Entries replace or add paths of base_tree; an entry with "sha": null deletes its path.
Reply create_tree(FakeGitHubState& state, const Call& call) {
  if (!call.body.is_object() || !call.body.contains("tree") || !call.body["tree"].is_array())
    return invalid("Tree", "tree", "missing_field", kGitDocs);
  FlatTree tree;
  if (call.body.contains("base_tree")) {
    auto base = state.trees.find(call.body["base_tree"].get<std::string>());
    if (base == state.trees.end()) return problem(422, "Invalid tree info", kGitDocs);
    tree = base->second;
  }
  for (const json& e : call.body["tree"]) {
    if (!e.is_object() || !e.contains("path") || !e["path"].is_string())
      return invalid("Tree", "tree.path", "missing_field", kGitDocs);
    const std::string path = e["path"];
    if (e.contains("sha") && e["sha"].is_null()) {
      tree.erase(path);
      continue;
    }
    TreeEntry entry{.mode = e.value("mode", "100644"), .type = e.value("type", "blob")};
    if (e.contains("content") && e["content"].is_string()) {
      entry.sha = put_blob(state, e["content"]);
    } else if (e.contains("sha") && e["sha"].is_string() && state.blobs.contains(e["sha"])) {
      entry.sha = e["sha"];
    } else {
      return problem(422, "Invalid tree info", kGitDocs);
    }
    tree[path] = entry;
  }
  return {.status = 201, .body = tree_json(state, put_tree(state, tree))};
}

Reply get_tree(FakeGitHubState& state, const Call& call) {
  return state.trees.contains(call.params[0]) ? Reply{.body = tree_json(state, call.params[0])}
                                              : not_found();
}

Reply create_commit(FakeGitHubState& state, const Call& call) {
  for (const char* field : {"message", "tree"})
    if (!call.body.is_object() || !call.body.contains(field) || !call.body[field].is_string())
      return invalid("Commit", field, "missing_field", kGitDocs);
  if (!state.trees.contains(call.body["tree"]))
    return problem(422, "Tree SHA does not exist", kGitDocs);
  std::vector<std::string> parents;
  for (const json& p : call.body.value("parents", json::array())) {
    if (!p.is_string() || !state.commits.contains(p))
      return problem(422, "Parent SHA does not exist or is not a commit object", kGitDocs);
    parents.push_back(p);
  }
  const std::string sha = put_commit(state, call.body["tree"], parents, call.body["message"]);
  return {.status = 201, .body = commit_json(state, state.commits.at(sha))};
}

Reply get_commit(FakeGitHubState& state, const Call& call) {
  auto c = state.commits.find(call.params[0]);
  return c == state.commits.end() ? not_found() : Reply{.body = commit_json(state, c->second)};
}

Reply get_ref(FakeGitHubState& state, const Call& call) {
  auto it = state.refs.find("refs/" + call.params[0]);
  return it == state.refs.end() ? not_found()
                                : Reply{.body = ref_json(state, it->first, it->second)};
}

Reply matching_refs(FakeGitHubState& state, const Call& call) {
  json out = json::array();
  for (const auto& [ref, sha] : state.refs)
    if (ref.rfind("refs/" + call.params[0], 0) == 0) out.push_back(ref_json(state, ref, sha));
  return {.body = out};
}

Reply create_ref(FakeGitHubState& state, const Call& call) {
  for (const char* field : {"ref", "sha"})
    if (!call.body.is_object() || !call.body.contains(field) || !call.body[field].is_string())
      return invalid("Reference", field, "missing_field", kGitDocs);
  const std::string ref = call.body["ref"];
  if (ref.rfind("refs/", 0) != 0 || std::count(ref.begin(), ref.end(), '/') < 2)
    return problem(422, "Reference name must start with 'refs/' and have at least two slashes",
                   kGitDocs);
  if (state.refs.contains(ref)) return problem(422, "Reference already exists", kGitDocs);
  if (!state.commits.contains(call.body["sha"]))
    return problem(422, "Object does not exist", kGitDocs);
  set_ref(state, ref, call.body["sha"]);
  return {.status = 201, .body = ref_json(state, ref, call.body["sha"])};
}

// Moves "refs/{ref}" to sha: a fast-forward, or anything with "force": true.
Reply update_ref(FakeGitHubState& state, const Call& call) {
  const std::string ref = "refs/" + call.params[0];
  auto it = state.refs.find(ref);
  if (it == state.refs.end()) return problem(422, "Reference does not exist", kGitDocs);
  if (!call.body.is_object() || !call.body.contains("sha") || !call.body["sha"].is_string())
    return invalid("Reference", "sha", "missing_field", kGitDocs);
  const std::string sha = call.body["sha"];
  if (!state.commits.contains(sha)) return problem(422, "Object does not exist", kGitDocs);
  if (!call.body.value("force", false) && !reaches(state, sha, it->second))
    return problem(422, "Update is not a fast forward", kGitDocs);
  set_ref(state, ref, sha);
  return {.body = ref_json(state, ref, sha)};
}

Reply delete_ref(FakeGitHubState& state, const Call& call) {
  if (!state.refs.erase("refs/" + call.params[0]))
    return problem(422, "Reference does not exist", kGitDocs);
  return {.status = 204};
}

}  // namespace

std::string put_blob(FakeGitHubState& state, const std::string& content) {
  const std::string sha = git_hash("blob", content);
  state.blobs[sha] = content;
  return sha;
}

std::string put_tree(FakeGitHubState& state, FlatTree tree) {
  std::string text;
  for (const auto& [path, e] : tree)
    text += e.mode + " " + e.type + " " + e.sha + "\t" + path + "\n";
  const std::string sha = git_hash("tree", text);
  state.trees[sha] = std::move(tree);
  return sha;
}

std::string put_commit(FakeGitHubState& state, const std::string& tree,
                       std::vector<std::string> parents, const std::string& message) {
  const std::int64_t time = state.tick();
  std::string text = "tree " + tree + "\n";
  for (const auto& p : parents) text += "parent " + p + "\n";
  text += "time " + std::to_string(time) + "\n\n" + message;
  const std::string sha = git_hash("commit", text);
  state.commits[sha] = {
      .sha = sha, .tree = tree, .parents = std::move(parents), .message = message, .time = time};
  return sha;
}

void set_ref(FakeGitHubState& state, const std::string& ref, const std::string& sha) {
  state.refs[ref] = sha;
  for (PullFacts& p : state.pulls) {
    if (p.state != "open") continue;
    if (ref == "refs/heads/" + p.head_ref) p.head_sha = sha;
    if (ref == "refs/heads/" + p.base_ref) p.base_sha = sha;
  }
}

std::optional<std::string> resolve_commit(const FakeGitHubState& state,
                                          const std::string& revision) {
  if (state.commits.contains(revision)) return revision;
  for (const std::string& ref : {revision, "refs/" + revision, "refs/heads/" + revision})
    if (auto it = state.refs.find(ref); it != state.refs.end()) return it->second;
  return std::nullopt;
}

const std::vector<Route>& git_routes() {
  static const std::vector<Route> kRoutes = {
      {"POST", "/git/blobs", Access::write, create_blob},
      {"GET", "/git/blobs/([0-9a-f]{40})", Access::read, get_blob},
      {"POST", "/git/trees", Access::write, create_tree},
      {"GET", "/git/trees/([0-9a-f]{40})", Access::read, get_tree},
      {"POST", "/git/commits", Access::write, create_commit},
      {"GET", "/git/commits/([0-9a-f]{40})", Access::read, get_commit},
      {"GET", "/git/ref/(.+)", Access::read, get_ref},
      {"GET", "/git/matching-refs/(.*)", Access::read, matching_refs},
      {"POST", "/git/refs", Access::write, create_ref},
      {"PATCH", "/git/refs/(.+)", Access::write, update_ref},
      {"DELETE", "/git/refs/(.+)", Access::write, delete_ref},
  };
  return kRoutes;
}

}  // namespace kblaster::testing
