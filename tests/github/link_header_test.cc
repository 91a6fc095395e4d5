#include "github/link_header.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(LinkHeader, FindsTheNextPageWhereverItStands) {
  EXPECT_EQ(next_page_url("<https://api.github.com/repositories/1/issues/2/comments?page=2>; "
                          "rel=\"next\", <https://api.github.com/repositories/1/issues/2/"
                          "comments?page=5>; rel=\"last\""),
            "https://api.github.com/repositories/1/issues/2/comments?page=2");
  EXPECT_EQ(next_page_url("<https://h/p?page=1>; rel=\"prev\", <https://h/p?page=3>; rel=\"next\""),
            "https://h/p?page=3");
  EXPECT_EQ(next_page_url("<https://h/a>; title=\"a, b; c\"; rel=next"), "https://h/a");
  EXPECT_EQ(next_page_url("<https://h/a>; rel=\"last NEXT\""), "https://h/a");
}

TEST(LinkHeader, NoNextOrABrokenHeaderIsTheLastPage) {
  EXPECT_FALSE(next_page_url(""));
  EXPECT_FALSE(
      next_page_url("<https://h/p?page=1>; rel=\"prev\", <https://h/p?page=1>; rel=\"first\""));
  EXPECT_FALSE(next_page_url("<https://h/p; rel=\"next\""));
  EXPECT_FALSE(next_page_url("https://h/p; rel=\"next\""));
  EXPECT_FALSE(next_page_url("<https://h/p>; rel=\"next"));
  EXPECT_FALSE(next_page_url("<https://h/p>; rel=\"nextpage\""));
}

}  // namespace
}  // namespace kblaster
