// The sizes a COLLADA file declares, checked against the data it holds before assimp reads it.
//
// Assimp's COLLADA parser reserves memory from declared counts before it reads the values they count:
// <float_array count="N"> reserves N values, <triangles count="N"> with inputs up to offset o reserves
// 3·N·(o + 1) indices, <vertex_weights count="N"> N entries. A 900-byte file claiming 10⁹ values made
// it ask for 4 GB (tests/fuzz/dae/huge_count.dae, found by tools/fuzz.sh dae). A well-formed file holds
// what it declares, so each declaration is bounded by what is written:
//   *_array            count ≤ the values in its text
//   triangles, lines   k·count·(o + 1) ≤ the indices in its <p> (k = 3, 2), o the largest <input offset>
//   polylist           count ≤ the values of its <vcount>; Σ vcount·(o + 1) ≤ the indices in its <p>
//   other primitives   count ≤ their <p> elements; o + 1 ≤ the indices in their <p> elements
//   accessor           offset + count·stride ≤ the values of the array its source names (of every array
//                      in the file when it names none); assimp 5.2 asserts this when it reads animation
//                      keys and aborts
//   any other count, stride or offset attribute: ≤ the values of the whole file
// (a value: a whitespace-separated token of text). Memory is then bounded by a constant times the
// file's size. What is refused here assimp would refuse too, after the allocation ("expected more
// values"). The file is parsed by tinyxml2 (its memory is linear in the file's size).
//
// Every *_array declares its count, non-zero where it holds values: assimp 5.2 dereferences a null array
// otherwise (tests/fuzz/dae/array_without_count.dae, found by tools/fuzz.sh dae: SEGV).
//
// Index lists (<p>, <h>, <vcount>, <v>) hold unsigned integers and whitespace only: on any other byte
// assimp 5.2's index reader stops advancing and appends indices until memory runs out
// (tests/fuzz/dae/letter_among_indices.dae, found by tools/fuzz.sh dae).
//
// Assimp 5.2 is built with its assertions on (Debian's libassimp5 aborts on them), and these hold in
// every well-formed file, so each is checked first:
//   - a primitive element has its <input>s and <vcount> before its first <p> (the schema's order; a
//     <vcount> after the <p> made assimp read polygon sizes it had not read yet: SEGV);
//   - <triangles>, <lines> and <polylist> hold one <p> (the schema's maxOccurs), and the count of
//     <polygons> is the number of its <p> (in <ph> too): assimp asserts that the primitives it read
//     equal count;
//   - an image's file reference (<init_from> in 1.4, <ref> in 1.5) names a file, i.e. is not empty or
//     "file://" alone: assimp asserts its decoded path is not empty;
//   - every attribute value fits the 1024-byte strings assimp reads names and references into, with the
//     ".jpg" it appends to a texture reference naming no image: at most 1019 bytes. A longer one comes
//     out empty and trips the same assertion (tests/fuzz/dae/long_texture_reference.dae, found by
//     tools/fuzz.sh dae: abort).
//
// References: the url of <instance_geometry>, _node, _controller, _camera, _light and _visual_scene must
// name an element of the file ("#id"). Assimp 5.2 leaks the nodes it has built when one has no url or
// another kind (tests/fuzz/dae/instance_without_url.dae, found by tools/fuzz.sh dae); a mesh file's
// references are local (assimp resolves no other), so nothing it could read is refused.
#pragma once

#include <string>

namespace impetus {

/// Refuses (LoadError at `path` and the element's line) a COLLADA document whose declared sizes exceed
/// its data, whose index lists hold other bytes than digits and whitespace or are out of the schema's
/// order, whose instances reference no element of the file, whose image references name no file, whose
/// attributes exceed assimp's names, or that is not well-formed XML.
void check_collada_sizes(const std::string& path, const std::string& bytes);

}  // namespace impetus
