// The one options reader (contact/model_options.hpp): the spellings every model accepts, and the
// errors every model gives, read the same for all five.
#include <gtest/gtest.h>

#include <cmath>

#include "contact/ecp/ecp_model.hpp"
#include "contact/factory.hpp"
#include "contact/max_dissipation/max_dissipation.hpp"
#include "contact/model_options.hpp"
#include "contact/no_slip/no_slip_model.hpp"
#include "contact/stewart_trinkle/stewart_trinkle.hpp"
#include "contact/viscous/viscous_model.hpp"

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

enum class Colour { Red, Green };

TEST(OptionReader, ReadsEachTypeWithItsSpellings) {
  const ModelOptions given = {{"flag", " true "}, {"off", "0"}, {"count", "+7"}, {"x", " -2.5e-3 "},
                              {"big", "inf"},     {"colour", "green"}};
  OptionReader read("m", given);
  EXPECT_TRUE(read.boolean("flag", false));
  EXPECT_FALSE(read.boolean("off", true));
  EXPECT_TRUE(read.boolean("absent", true));
  EXPECT_EQ(read.integer("count", 0, 0, 10), 7);
  EXPECT_EQ(read.real("x", 0, -1, 1), -2.5e-3);
  EXPECT_EQ(read.real("big", 0, 0, INFINITY), INFINITY);
  EXPECT_EQ(read.choice("colour", Colour::Red, {{"red", Colour::Red}, {"green", Colour::Green}}), Colour::Green);
  EXPECT_NO_THROW(read.finish());
}

TEST(OptionReader, RefusesWhatIsNotItsType) {
  auto message = [](const ModelOptions& given, auto&& read_one) {
    OptionReader read("m", given);
    try {
      read_one(read);
    } catch (const OptionError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message({{"b", "yes"}}, [](OptionReader& r) { r.boolean("b", false); }),
            "contact model 'm': option b=\"yes\": expected true or false (or 1 or 0)");
  EXPECT_EQ(message({{"i", "2.5"}}, [](OptionReader& r) { r.integer("i", 0, 0, 9); }),
            "contact model 'm': option i=\"2.5\": expected an integer in [0, 9]");
  EXPECT_EQ(message({{"x", "0"}}, [](OptionReader& r) { r.real("x", 1, 0, 1, OptionReader::Lower::Open); }),
            "contact model 'm': option x=\"0\": expected a number in (0, 1]");
  EXPECT_NE(message({{"x", "nan"}}, [](OptionReader& r) { r.real("x", 1, -INFINITY, INFINITY); }), "");
  EXPECT_NE(message({{"x", "inf"}}, [](OptionReader& r) { r.real("x", 1, 0, 1e6); }), "");
  EXPECT_NE(message({{"x", "1e-3m"}}, [](OptionReader& r) { r.real("x", 1, 0, 1); }), "");
  EXPECT_EQ(message({{"c", "blue"}},
                    [](OptionReader& r) { r.choice("c", Colour::Red, {{"red", Colour::Red}, {"green", Colour::Green}}); }),
            "contact model 'm': option c=\"blue\": expected one of red, green");
  EXPECT_EQ(message({{"k", "1"}, {"z", "1"}},
                    [](OptionReader& r) {
                      r.integer("k", 0, 0, 1);
                      r.finish();
                    }),
            "contact model 'm': unknown option 'z' (known: k)");
}

// warm_start is a boolean in every model that has one; 1/0 (what scenes wrote for two of them) and
// true/false (the other two) are both accepted everywhere.
TEST(ModelOptions, WarmStartIsABooleanInEveryModel) {
  for (const char* on : {"1", "true", " true"}) {
    EXPECT_TRUE(StewartTrinkleOptions::parse({{"warm_start", on}}).warm_start) << on;
    EXPECT_TRUE(MaxDissipationOptions::parse({{"warm_start", on}}).warm_start) << on;
    EXPECT_TRUE(NoSlipOptions::parse({{"warm_start", on}}).projection.warm_start) << on;
    EXPECT_TRUE(ViscousOptions::parse({{"warm_start", on}}).projection.warm_start) << on;
  }
  for (const char* off : {"0", "false"}) {
    EXPECT_FALSE(StewartTrinkleOptions::parse({{"warm_start", off}}).warm_start) << off;
    EXPECT_FALSE(MaxDissipationOptions::parse({{"warm_start", off}}).warm_start) << off;
    EXPECT_FALSE(NoSlipOptions::parse({{"warm_start", off}}).projection.warm_start) << off;
    EXPECT_FALSE(ViscousOptions::parse({{"warm_start", off}}).projection.warm_start) << off;
  }
  for (const char* model : {"stewart_trinkle", "max_dissipation", "no_slip", "viscous"}) {
    const std::string message = error_of(model, {{"warm_start", "2"}});
    EXPECT_NE(message.find(std::string("contact model '") + model + "': option warm_start=\"2\": expected true or false"),
              std::string::npos)
        << message;
  }
}

TEST(ModelOptions, EveryModelRefusesUnknownOptionsAlike) {
  for (const ContactModelInfo& info : contact_models()) {
    const std::string message = error_of(info.name, {{"colour", "red"}});
    EXPECT_NE(message.find("contact model '" + info.name + "': unknown option 'colour'"), std::string::npos) << message;
  }
}

TEST(ModelOptions, EveryModelRefusesABadNumberAlike) {
  const std::pair<const char*, const char*> numeric[] = {{"stewart_trinkle", "tolerance"},
                                                         {"max_dissipation", "tolerance"},
                                                         {"no_slip", "zero_tolerance"},
                                                         {"viscous", "certificate_tolerance"},
                                                         {"ecp", "tolerance"}};
  for (const auto& [model, key] : numeric) {
    const std::string message = error_of(model, {{key, "abc"}});
    EXPECT_NE(message.find(std::string("contact model '") + model + "': option " + key + "=\"abc\": expected a number in"),
              std::string::npos)
        << message;
  }
}

TEST(ModelOptions, StickGapTakesAnyGapAndInfinity) {
  EXPECT_TRUE(std::isinf(NoSlipOptions::parse({}).stick_gap));
  EXPECT_TRUE(std::isinf(NoSlipOptions::parse({{"stick_gap", "inf"}}).stick_gap));
  EXPECT_EQ(NoSlipOptions::parse({{"stick_gap", "-0.001"}}).stick_gap, -0.001);
  EXPECT_THROW(NoSlipOptions::parse({{"stick_gap", "nan"}}), OptionError);
}

}  // namespace
}  // namespace impetus
