#include "batch/scene_overrides.hpp"

#include <tinyxml2.h>

#include "base/load_error.hpp"
#include "sim/scene/scene_loader.hpp"

namespace impetus::batch {
namespace {

using tinyxml2::XMLElement;

XMLElement* step_into(XMLElement* parent, const std::string& step, tinyxml2::XMLDocument& doc,
                      const std::string& scene_path, const std::string& path) {
  const std::size_t open = step.find('[');
  const std::string element = step.substr(0, open);
  if (open == std::string::npos) {
    if (XMLElement* child = parent->FirstChildElement(element.c_str())) return child;
    XMLElement* child = doc.NewElement(element.c_str());
    parent->InsertEndChild(child);
    return child;
  }
  if (step.back() != ']') throw LoadError(scene_path, 0, "override " + path + ": '" + step + "' lacks its ']'");
  const std::string name = step.substr(open + 1, step.size() - open - 2);
  for (XMLElement* child = parent->FirstChildElement(element.c_str()); child;
       child = child->NextSiblingElement(element.c_str()))
    if (const char* n = child->Attribute("name"); n && name == n) return child;
  throw LoadError(scene_path, 0, "override " + path + ": no <" + element + " name=\"" + name + "\"> in <" +
                                     parent->Name() + ">");
}

}  // namespace

std::string apply_overrides(const std::string& scene_path, const std::vector<Override>& overrides) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(scene_path.c_str()) != tinyxml2::XML_SUCCESS)
    throw LoadError(scene_path, doc.ErrorLineNum(), std::string("not well-formed XML: ") + doc.ErrorStr());
  XMLElement* scene = doc.FirstChildElement("scene");
  if (!scene) throw LoadError(scene_path, 0, "no <scene> element to override");
  for (const Override& o : overrides) {
    const std::size_t at = o.path.rfind("/@") != std::string::npos ? o.path.rfind("/@") : o.path.rfind('@');
    if (at == std::string::npos) throw LoadError(scene_path, 0, "override " + o.path + " names no @attribute");
    const std::string elements = o.path.substr(0, at), attribute = o.path.substr(o.path.find('@', at) + 1);
    XMLElement* e = scene;
    std::size_t begin = 0;
    while (begin < elements.size()) {
      const std::size_t end = std::min(elements.find('/', begin), elements.size());
      e = step_into(e, elements.substr(begin, end - begin), doc, scene_path, o.path);
      begin = end + 1;
    }
    e->SetAttribute(attribute.c_str(), o.value.c_str());
  }
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  return printer.CStr();
}

World load_scene_with(const std::string& scene_path, const std::vector<Override>& overrides) {
  if (overrides.empty()) return load_scene(scene_path);
  return load_scene_string(apply_overrides(scene_path, overrides), scene_path);
}

}  // namespace impetus::batch
