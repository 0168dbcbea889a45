// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IENS} from "./Interfaces.sol";

interface IWrapperOwner {
    function ownerOf(uint256 id) external view returns (address);
}

/// A public resolver with today's events (TextChanged carries the value; clearRecords bumps a version and emits
/// VersionChanged), record reads for every event, and multicall. It authorises the node's registry owner, the
/// NameWrapper token owner when the wrapper holds the node, registry operators, and contracts the admin trusts
/// (controllers that set records on registration). Deployed as the L2 resolvers, as a newer resolver on the root chain
/// and, pointed at the 3DNS token instead of a registry, as the base of the 3DNS resolver. DNS records are
/// ens-contracts' DNSResolver's, one record at a time: kept apart from text records, which `text()` never reads them as.
contract ModernResolver {
    event AddrChanged(bytes32 indexed node, address a);
    event AddressChanged(bytes32 indexed node, uint256 coinType, bytes newAddress);
    event NameChanged(bytes32 indexed node, string name);
    event ABIChanged(bytes32 indexed node, uint256 indexed contentType);
    event PubkeyChanged(bytes32 indexed node, bytes32 x, bytes32 y);
    event TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value);
    event ContenthashChanged(bytes32 indexed node, bytes hash);
    event InterfaceChanged(bytes32 indexed node, bytes4 indexed interfaceID, address implementer);
    event VersionChanged(bytes32 indexed node, uint64 newVersion);
    event DNSRecordChanged(bytes32 indexed node, bytes name, uint16 resource, bytes record);
    event DNSRecordDeleted(bytes32 indexed node, bytes name, uint16 resource);

    uint256 private constant COIN_TYPE_ETH = 60;

    IENS public immutable ens;
    address public immutable nameWrapper;
    address public immutable admin;
    mapping(address => bool) public trusted;

    mapping(bytes32 => uint64) public recordVersions;
    mapping(uint64 => mapping(bytes32 => mapping(uint256 => bytes))) private _addresses;
    mapping(uint64 => mapping(bytes32 => mapping(string => string))) internal _texts;
    mapping(uint64 => mapping(bytes32 => mapping(bytes32 => mapping(uint16 => bytes)))) internal _dnsRecords;
    mapping(uint64 => mapping(bytes32 => bytes)) private _contenthashes;
    mapping(uint64 => mapping(bytes32 => string)) private _names;
    mapping(uint64 => mapping(bytes32 => bytes32[2])) private _pubkeys;
    mapping(uint64 => mapping(bytes32 => mapping(uint256 => bytes))) private _abis;
    mapping(uint64 => mapping(bytes32 => mapping(bytes4 => address))) private _interfaces;

    constructor(IENS _ens, address _nameWrapper) {
        ens = _ens;
        nameWrapper = _nameWrapper;
        admin = msg.sender;
    }

    function setTrusted(address account, bool isTrusted) external {
        require(msg.sender == admin, "only admin");
        trusted[account] = isTrusted;
    }

    modifier authorised(bytes32 node) {
        require(isAuthorised(node, msg.sender), "not authorised");
        _;
    }

    function isAuthorised(bytes32 node, address sender) public view returns (bool) {
        if (trusted[sender]) return true;
        address owner = ens.owner(node);
        if (owner == nameWrapper && owner != address(0)) owner = IWrapperOwner(nameWrapper).ownerOf(uint256(node));
        return owner == sender || ens.isApprovedForAll(owner, sender);
    }

    // ---- writes ----

    function clearRecords(bytes32 node) external authorised(node) {
        recordVersions[node]++;
        emit VersionChanged(node, recordVersions[node]);
    }

    function setAddr(bytes32 node, address a) external authorised(node) {
        _setAddr(node, COIN_TYPE_ETH, abi.encodePacked(a));
    }

    function setAddr(bytes32 node, uint256 coinType, bytes calldata a) external authorised(node) {
        _setAddr(node, coinType, a);
    }

    function setText(bytes32 node, string calldata key, string calldata value) external authorised(node) {
        _texts[recordVersions[node]][node][key] = value;
        emit TextChanged(node, key, key, value);
    }

    function setContenthash(bytes32 node, bytes calldata hash) external authorised(node) {
        _contenthashes[recordVersions[node]][node] = hash;
        emit ContenthashChanged(node, hash);
    }

    function setName(bytes32 node, string calldata newName) external authorised(node) {
        _names[recordVersions[node]][node] = newName;
        emit NameChanged(node, newName);
    }

    function setPubkey(bytes32 node, bytes32 x, bytes32 y) external authorised(node) {
        _pubkeys[recordVersions[node]][node] = [x, y];
        emit PubkeyChanged(node, x, y);
    }

    /// `contentType` is a single bit (1 JSON, 2 zlib JSON, 4 CBOR, 8 URI), as in ENSIP-4.
    function setABI(bytes32 node, uint256 contentType, bytes calldata data) external authorised(node) {
        require(contentType != 0 && contentType & (contentType - 1) == 0, "content type must be one bit");
        _abis[recordVersions[node]][node][contentType] = data;
        emit ABIChanged(node, contentType);
    }

    function setInterface(bytes32 node, bytes4 interfaceID, address implementer) external authorised(node) {
        _interfaces[recordVersions[node]][node][interfaceID] = implementer;
        emit InterfaceChanged(node, interfaceID, implementer);
    }

    /// One DNS record (`name` in wire format, `record` its RRs in wire format), as ens-contracts' DNSResolver stores it.
    function setDNSRecord(bytes32 node, bytes calldata name, uint16 resource, bytes calldata record) external virtual authorised(node) {
        _dnsRecords[recordVersions[node]][node][keccak256(name)][resource] = record;
        emit DNSRecordChanged(node, name, resource, record);
    }

    function deleteDNSRecord(bytes32 node, bytes calldata name, uint16 resource) external virtual authorised(node) {
        delete _dnsRecords[recordVersions[node]][node][keccak256(name)][resource];
        emit DNSRecordDeleted(node, name, resource);
    }

    /// Several record writes in one transaction (each call is checked as if sent directly).
    function multicall(bytes[] calldata calls) external returns (bytes[] memory results) {
        results = new bytes[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory out) = address(this).delegatecall(calls[i]);
            if (!ok) {
                assembly {
                    revert(add(out, 32), mload(out))
                }
            }
            results[i] = out;
        }
    }

    // ---- reads ----

    function addr(bytes32 node) external view returns (address payable) {
        bytes memory a = _addresses[recordVersions[node]][node][COIN_TYPE_ETH];
        return a.length == 20 ? payable(address(bytes20(a))) : payable(address(0));
    }

    function addr(bytes32 node, uint256 coinType) external view returns (bytes memory) {
        return _addresses[recordVersions[node]][node][coinType];
    }

    function text(bytes32 node, string calldata key) external view returns (string memory) {
        return _texts[recordVersions[node]][node][key];
    }

    function dnsRecord(bytes32 node, bytes32 name, uint16 resource) external view returns (bytes memory) {
        return _dnsRecords[recordVersions[node]][node][name][resource];
    }

    function contenthash(bytes32 node) external view returns (bytes memory) {
        return _contenthashes[recordVersions[node]][node];
    }

    function name(bytes32 node) external view returns (string memory) {
        return _names[recordVersions[node]][node];
    }

    function pubkey(bytes32 node) external view returns (bytes32 x, bytes32 y) {
        bytes32[2] memory p = _pubkeys[recordVersions[node]][node];
        return (p[0], p[1]);
    }

    function ABI(bytes32 node, uint256 contentTypes) external view returns (uint256, bytes memory) {
        for (uint256 t = 1; t <= contentTypes; t <<= 1) {
            bytes memory data = _abis[recordVersions[node]][node][t];
            if (t & contentTypes != 0 && data.length > 0) return (t, data);
        }
        return (0, "");
    }

    function interfaceImplementer(bytes32 node, bytes4 interfaceID) external view returns (address) {
        return _interfaces[recordVersions[node]][node][interfaceID];
    }

    function supportsInterface(bytes4 interfaceID) external pure returns (bool) {
        return interfaceID == 0x01ffc9a7 // ERC-165
            || interfaceID == 0x3b3b57de // addr(bytes32)
            || interfaceID == 0xf1cb7e06 // addr(bytes32,uint256)
            || interfaceID == 0x59d1d43c // text
            || interfaceID == 0xbc1c58d1 // contenthash
            || interfaceID == 0x691f3431 // name
            || interfaceID == 0xc8690233 // pubkey
            || interfaceID == 0x2203ab56 // ABI
            || interfaceID == 0x124a319c; // interfaceImplementer
    }

    function _setAddr(bytes32 node, uint256 coinType, bytes memory a) private {
        _addresses[recordVersions[node]][node][coinType] = a;
        emit AddressChanged(node, coinType, a);
        if (coinType == COIN_TYPE_ETH) emit AddrChanged(node, address(bytes20(a)));
    }
}
