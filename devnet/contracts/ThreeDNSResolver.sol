// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IENS} from "./Interfaces.sol";
import {ModernResolver} from "./ModernResolver.sol";

/// The 3DNS resolver: ModernResolver's records, read with the 3DNS token as registry, plus DNS records with a TTL
/// (3DNS's DNSRecordChanged carries one). A TXT record whose owner name is `<key>.ens` is the text record `key`, as
/// on mainnet (a TXT at `com.twitter.ens` is what `text(node, "com.twitter")` answers): both write one store, so the
/// later of `setText` and the TXT record wins, and deleting the TXT record clears the text. The first RR of the record
/// counts; a TXT RR's character-strings are joined (DNS splits values over 255 bytes into several).
contract ThreeDNSResolver is ModernResolver {
    event DNSRecordChanged(bytes32 indexed node, bytes name, uint16 resource, uint32 ttl, bytes record);
    event DNSZonehashChanged(bytes32 indexed node, bytes lastzonehash, bytes zonehash);
    event ZoneCreated(bytes32 indexed node, uint64 indexed version);

    uint16 private constant TYPE_TXT = 16;

    mapping(bytes32 => bytes) public zonehash;
    mapping(bytes32 => uint64) public zoneVersion;

    constructor(IENS _token) ModernResolver(_token, address(0)) {}

    function setDNSRecord(bytes32 node, bytes calldata name, uint16 resource, uint32 ttl, bytes calldata record) external authorised(node) {
        _dnsRecords[recordVersions[node]][node][keccak256(name)][resource] = record;
        emit DNSRecordChanged(node, name, resource, ttl, record);
        if (resource == TYPE_TXT) _txtAsText(node, name, record);
    }

    function _txtAsText(bytes32 node, bytes calldata name, bytes calldata record) private {
        (bool isKey, string memory key) = _textKey(name);
        (bool isTxt, string memory value) = _txtValue(record);
        if (isKey && isTxt) _texts[recordVersions[node]][node][key] = value;
    }

    /// 3DNS records carry a TTL: the TTL-less form of ens-contracts is not this resolver's.
    function setDNSRecord(bytes32, bytes calldata, uint16, bytes calldata) external pure override {
        revert("3DNS records carry a TTL");
    }

    function deleteDNSRecord(bytes32 node, bytes calldata name, uint16 resource) external override authorised(node) {
        delete _dnsRecords[recordVersions[node]][node][keccak256(name)][resource];
        emit DNSRecordDeleted(node, name, resource);
        if (resource != TYPE_TXT) return;
        (bool isKey, string memory key) = _textKey(name);
        if (isKey) delete _texts[recordVersions[node]][node][key];
    }

    function setZonehash(bytes32 node, bytes calldata hash) external authorised(node) {
        bytes memory last = zonehash[node];
        zonehash[node] = hash;
        emit DNSZonehashChanged(node, last, hash);
    }

    /// Announces a zone (its version counts up); records, texts included, are untouched.
    function createZone(bytes32 node) external authorised(node) {
        emit ZoneCreated(node, ++zoneVersion[node]);
    }

    /// `a.b.ens` (wire format) → "a.b"; false for any other name.
    function _textKey(bytes calldata name) private pure returns (bool, string memory) {
        bytes memory key = new bytes(name.length);
        uint256 k = 0;
        uint256 lastStart = 0;
        uint256 labels = 0;
        uint256 i = 0;
        while (true) {
            if (i >= name.length) return (false, "");
            uint256 len = uint8(name[i]);
            if (len == 0) break;
            if (i + 1 + len > name.length) return (false, "");
            if (labels > 0) key[k++] = ".";
            lastStart = k;
            for (uint256 j = 0; j < len; j++) key[k++] = name[i + 1 + j];
            i += 1 + len;
            labels++;
        }
        if (i + 1 != name.length || labels < 2 || k - lastStart != 3) return (false, "");
        if (key[lastStart] != "e" || key[lastStart + 1] != "n" || key[lastStart + 2] != "s") return (false, "");
        uint256 keyLength = lastStart - 1;
        assembly {
            mstore(key, keyLength)
        }
        return (true, string(key));
    }

    /// The text of the record's first RR when it is a TXT RR: its character-strings joined.
    function _txtValue(bytes calldata rrs) private pure returns (bool, string memory) {
        uint256 i = 0;
        while (true) {
            if (i >= rrs.length) return (false, "");
            uint256 len = uint8(rrs[i]);
            i += 1 + len;
            if (len == 0) break;
        }
        if (i + 10 > rrs.length) return (false, "");
        uint16 rrType = uint16(bytes2(rrs[i:i + 2]));
        uint256 rdLength = uint16(bytes2(rrs[i + 8:i + 10]));
        i += 10;
        if (rrType != TYPE_TXT || i + rdLength > rrs.length) return (false, "");
        bytes memory value;
        uint256 end = i + rdLength;
        while (i < end) {
            uint256 len = uint8(rrs[i]);
            if (i + 1 + len > end) return (false, "");
            value = bytes.concat(value, rrs[i + 1:i + 1 + len]);
            i += 1 + len;
        }
        return (true, string(value));
    }
}
