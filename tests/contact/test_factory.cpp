// The registry of contact models and the parsing of model options.
#include <gtest/gtest.h>

#include "contact/factory.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"

namespace impetus {
namespace {

/// The OptionError message of make_contact_model, or "" when it does not throw.
std::string error_of(const std::string& name, const ModelOptions& options) {
  try {
    make_contact_model(name, options);
  } catch (const OptionError& e) {
    return e.what();
  }
  return "";
}

TEST(ContactFactory, ListsStewartTrinkleFirstWithASummary) {
  const auto& models = contact_models();
  ASSERT_FALSE(models.empty());
  EXPECT_EQ(models.front().name, "stewart_trinkle");
  for (const ContactModelInfo& m : models) {
    EXPECT_FALSE(m.summary.empty()) << m.name;
    EXPECT_TRUE(is_contact_model(m.name));
    EXPECT_EQ(make_contact_model(m.name, {})->name(), m.name);   // every model builds with defaults
  }
  EXPECT_FALSE(is_contact_model("lcp"));
}

TEST(ContactFactory, OnlyTheGeometricallyImplicitModelAsksForHullPlanePairs) {
  for (const ContactModelInfo& m : contact_models())
    EXPECT_EQ(m.needs.hull_plane_pairs, m.name == "ecp") << m.name;
  EXPECT_TRUE(contact_model_info("ecp").needs.hull_plane_pairs);
  EXPECT_THROW(contact_model_info("lcp"), OptionError);
}

TEST(ContactFactory, UnknownModelNamesTheKnownOnes) {
  const std::string message = error_of("stewart-trinkle", {});
  EXPECT_NE(message.find("unknown contact model 'stewart-trinkle'"), std::string::npos) << message;
  EXPECT_NE(message.find("stewart_trinkle"), std::string::npos) << message;
}

TEST(StewartTrinkleOptions, DefaultsAndParsedValues) {
  const StewartTrinkleOptions defaults = StewartTrinkleOptions::parse({});
  EXPECT_EQ(defaults.friction_edges, 4);
  EXPECT_EQ(defaults.tolerance, StewartTrinkleOptions{}.tolerance);

  const StewartTrinkleOptions o = StewartTrinkleOptions::parse({{"friction_edges", " 8 "},
                                                                {"max_pivots", "500"},
                                                                {"tolerance", "1e-8"},
                                                                {"regularization_min", "1e-12"},
                                                                {"regularization_max", "1e-9"},
                                                                {"regularization_growth", "100"},
                                                                {"merge_tolerance", "0"}});
  EXPECT_EQ(o.friction_edges, 8);
  EXPECT_EQ(o.max_pivots, 500);
  EXPECT_EQ(o.tolerance, 1e-8);
  EXPECT_EQ(o.lemke().regularization_min, 1e-12);
  EXPECT_EQ(o.lemke().regularization_max, 1e-9);
  EXPECT_EQ(o.lemke().regularization_growth, 100);
  EXPECT_EQ(o.merge_tolerance, 0.0);
  auto model = make_contact_model("stewart_trinkle", {{"friction_edges", "6"}});
  EXPECT_EQ(dynamic_cast<StewartTrinkleModel&>(*model).options().friction_edges, 6);
}

TEST(StewartTrinkleOptions, BadValuesAndUnknownKeysThrowWithClearMessages) {
  struct Case {
    ModelOptions options;
    std::string expect;   // a fragment of the message
  };
  const Case cases[] = {
      {{{"friction_edges", "3"}}, "friction_edges=\"3\": expected an integer in [4, 64]"},
      {{{"friction_edges", "5"}}, "friction_edges=\"5\": expected an even integer"},
      {{{"friction_edges", "4.5"}}, "friction_edges=\"4.5\""},
      {{{"friction_edges", "four"}}, "friction_edges=\"four\""},
      {{{"friction_edges", ""}}, "friction_edges=\"\""},
      {{{"tolerance", "0"}}, "tolerance=\"0\": expected a number in"},
      {{{"tolerance", "nan"}}, "tolerance=\"nan\""},
      {{{"max_pivots", "-1"}}, "max_pivots=\"-1\""},
      {{{"regularization_growth", "1"}}, "regularization_growth=\"1\""},
      {{{"merge_tolerance", "0.1"}}, "merge_tolerance=\"0.1\""},
      {{{"regularization_min", "1e-5"}, {"regularization_max", "1e-6"}}, "expected at most regularization_max"},
      {{{"friction_edge", "4"}}, "unknown option 'friction_edge' (known: friction_edges"},
  };
  for (const Case& c : cases) {
    const std::string message = error_of("stewart_trinkle", c.options);
    EXPECT_NE(message.find("contact model 'stewart_trinkle'"), std::string::npos) << message;
    EXPECT_NE(message.find(c.expect), std::string::npos) << "got: " << message << "\nexpected: " << c.expect;
  }
}

}  // namespace
}  // namespace impetus
