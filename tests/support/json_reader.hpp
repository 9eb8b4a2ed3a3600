// Reading perftide's --json output and JSON test data in the tests, through
// nlohmann-json: a strict parser (it refuses invalid JSON and invalid UTF-8),
// so every test that reads output also checks that the output is valid.
// Values are handed to the tests as a small tree whose numbers keep their
// digits as text, so 64-bit counts compare exactly (perftide writes counts
// past 2^53 as strings, which stay text as well).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace testjson {

struct Value {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool boolean = false;
    std::string text;  // a number's digits or a string's contents
    std::vector<Value> items;
    std::map<std::string, Value> fields;

    const Value& operator[](const std::string& key) const {
        auto it = fields.find(key);
        if (it == fields.end()) throw std::out_of_range("JSON object has no field '" + key + "'");
        return it->second;
    }
    bool has(const std::string& key) const { return fields.count(key) != 0; }
};

inline Value convert(const nlohmann::json& j) {
    Value v;
    switch (j.type()) {
        case nlohmann::json::value_t::null:
            break;
        case nlohmann::json::value_t::boolean:
            v.kind = Value::Bool;
            v.boolean = j.get<bool>();
            break;
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned:
        case nlohmann::json::value_t::number_float:
            v.kind = Value::Number;
            v.text = j.dump();
            break;
        case nlohmann::json::value_t::string:
            v.kind = Value::String;
            v.text = j.get<std::string>();
            break;
        case nlohmann::json::value_t::array:
            v.kind = Value::Array;
            for (const auto& item : j) v.items.push_back(convert(item));
            break;
        case nlohmann::json::value_t::object:
            v.kind = Value::Object;
            for (const auto& [key, item] : j.items()) v.fields[key] = convert(item);
            break;
        default:
            throw std::runtime_error("JSON: binary values are not JSON text");
    }
    return v;
}

// The document in s; std::runtime_error naming the fault when it is not
// valid JSON.
inline Value parse(const std::string& s) {
    try {
        return convert(nlohmann::json::parse(s));
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("JSON: ") + e.what());
    }
}

}  // namespace testjson
