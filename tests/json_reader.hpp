// A small JSON reader for test data and for checking gperft's --json output.
// Numbers keep their text, so 64- and 128-bit counts compare exactly.
#pragma once

#include <map>
#include <memory>
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

class Reader {
   public:
    explicit Reader(const std::string& s) : s_(s) {}

    Value document() {
        Value v = value();
        skip();
        if (i_ != s_.size()) fail("trailing text");
        return v;
    }

   private:
    [[noreturn]] void fail(const std::string& what) { throw std::runtime_error("JSON: " + what + " at " + std::to_string(i_)); }
    void skip() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
    }
    bool eat(char c) {
        skip();
        if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
        return false;
    }
    std::string string_body() {
        std::string out;
        while (i_ < s_.size() && s_[i_] != '"') {
            char c = s_[i_++];
            if (c == '\\' && i_ < s_.size()) {
                const char e = s_[i_++];
                c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
                if (e == 'u') i_ += 4, c = '?';
            }
            out += c;
        }
        if (i_++ >= s_.size()) fail("unterminated string");
        return out;
    }
    Value value() {
        skip();
        if (i_ >= s_.size()) fail("unexpected end");
        Value v;
        const char c = s_[i_];
        if (c == '{') {
            ++i_;
            v.kind = Value::Object;
            if (eat('}')) return v;
            do {
                if (!eat('"')) fail("expected a key");
                const std::string key = string_body();
                if (!eat(':')) fail("expected ':'");
                v.fields[key] = value();
            } while (eat(','));
            if (!eat('}')) fail("expected '}'");
        } else if (c == '[') {
            ++i_;
            v.kind = Value::Array;
            if (eat(']')) return v;
            do v.items.push_back(value());
            while (eat(','));
            if (!eat(']')) fail("expected ']'");
        } else if (c == '"') {
            ++i_;
            v.kind = Value::String;
            v.text = string_body();
        } else if (s_.compare(i_, 4, "true") == 0 || s_.compare(i_, 5, "false") == 0) {
            v.kind = Value::Bool;
            v.boolean = s_[i_] == 't';
            i_ += v.boolean ? 4 : 5;
        } else if (s_.compare(i_, 4, "null") == 0) {
            i_ += 4;
        } else {
            v.kind = Value::Number;
            while (i_ < s_.size() && std::string("+-0123456789.eE").find(s_[i_]) != std::string::npos) v.text += s_[i_++];
            if (v.text.empty()) fail("unexpected character");
        }
        return v;
    }

    const std::string& s_;
    size_t i_ = 0;
};

inline Value parse(const std::string& s) { return Reader(s).document(); }

}  // namespace testjson
