// Placeholder until the helpmate search lands: answers Unknown.
#include "analysis/unwinnable.hpp"

namespace gperft::analysis {

MateVerdict can_checkmate(const chess::Position&, chess::Color, const MateBudget&) {
    return {MateAnswer::Unknown, {}, "not searched"};
}

}  // namespace gperft::analysis
