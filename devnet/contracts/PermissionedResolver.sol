// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {EnhancedAccessControl} from "./EnhancedAccessControl.sol";
import {ResolutionLib} from "./ResolutionLib.sol";

/// The functions IPermissionedResolver declares itself; their selectors XOR to the interface id (0x2c7442c9) by which
/// clients (our resolution API among them) tell an ENSv2 PermissionedResolver.
interface IPermissionedResolver {
    function initialize(address admin, uint256 roleBitmap) external;
    function setAlias(bytes calldata fromName, bytes calldata toName) external;
    function getAlias(bytes memory fromName) external view returns (bytes memory toName);
}

/// Stands for ENSv2's PermissionedResolver (ensdomains/contracts-v2 at 5677359d, which is also its main branch today):
/// a resolver for any number of names whose writers hold EnhancedAccessControl roles, deployed as proxies of one
/// implementation and set up with `initialize(admin, roleBitmap)`.
///
/// Kept, with the real signatures, events and `indexed` flags:
/// - records of every ENSv1 profile plus ENSIP-24 `data(key)`, versioned per name: `clearRecords` bumps the version
///   (`VersionChanged`) and reads then see the new, empty version;
/// - `addr(node, coinType)` of an EVM chain (ENSIP-19; 60 included) falls back to the default EVM address (coin type
///   0x80000000) when its own is empty; EVM addresses must be 0 or 20 bytes;
/// - roles: a write needs its role at the root, on the name (resource keccak256(node, 0)) or, for a record with a key
///   (text key, data key, coin type), on that key of the name or of any name (resource keccak256(node or 0, key hash));
///   `authorizeNameRoles` / `authorizeTextRoles` / `authorizeDataRoles` / `authorizeAddrRoles` grant and revoke them,
///   and a grant on a resource nobody holds a role on first names it (`NamedResource`, `NamedTextResource`,
///   `NamedDataResource`, `NamedAddrResource`); the generic `grantRoles`/`revokeRoles` are disabled, root roles go
///   through `grantRootRoles`/`revokeRootRoles`;
/// - aliases (`setAlias`, root role only): a name resolves as the name its longest aliased suffix points to, again and
///   again until no alias applies or the same alias matches twice in a row;
/// - `resolve(name, data)` (ENSIP-10): answers `data` for the node of the aliased name, a `multicall` call by call
///   (each answer or error in place); `multicall` of writes; ERC-165 and ERC-7996 (`eth.ens.resolver.extended.multicall`);
/// - `initialize` runs once per proxy and never on the implementation (the constructor marks the implementation
///   done), and emits `Initialized(1)` as OpenZeppelin's initializer does.
///
/// Left out: UUPS upgrades (`ROLE_UPGRADE`, `upgradeToAndCall`, `proxiableUUID`, `canUpgradeFrom`, the `Upgraded`
/// event, which the real proxy emits): our proxies are plain EIP-1167 clones; HCA sender equivalence;
/// EnhancedAccessControl's per-role assignee counts (`roleCount`): this contract only counts the accounts holding some
/// role on each resource, which is what decides the Named* events.
contract PermissionedResolver is EnhancedAccessControl, IPermissionedResolver {
    // Role bits (PermissionedResolverLib): one nybble each; the admin of role `r` is `r << 128`.
    uint256 internal constant ROLE_SET_ADDR = 1 << 0;
    uint256 internal constant ROLE_SET_TEXT = 1 << 4;
    uint256 internal constant ROLE_SET_CONTENTHASH = 1 << 8;
    uint256 internal constant ROLE_SET_PUBKEY = 1 << 12;
    uint256 internal constant ROLE_SET_ABI = 1 << 16;
    uint256 internal constant ROLE_SET_INTERFACE = 1 << 20;
    uint256 internal constant ROLE_SET_NAME = 1 << 24;
    uint256 internal constant ROLE_SET_ALIAS = 1 << 28;
    uint256 internal constant ROLE_CLEAR = 1 << 32;
    uint256 internal constant ROLE_SET_DATA = 1 << 36;

    uint256 private constant COIN_TYPE_ETH = 60;
    uint256 private constant COIN_TYPE_DEFAULT = 1 << 31;

    // ens-contracts' resolver profile events.
    event AddrChanged(bytes32 indexed node, address a);
    event AddressChanged(bytes32 indexed node, uint256 coinType, bytes newAddress);
    event TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value);
    event DataChanged(bytes32 indexed node, string indexed indexedKey, string key, bytes indexed indexedData);
    event ContenthashChanged(bytes32 indexed node, bytes hash);
    event NameChanged(bytes32 indexed node, string name);
    event ABIChanged(bytes32 indexed node, uint256 indexed contentType);
    event PubkeyChanged(bytes32 indexed node, bytes32 x, bytes32 y);
    event InterfaceChanged(bytes32 indexed node, bytes4 indexed interfaceID, address implementer);
    event VersionChanged(bytes32 indexed node, uint64 newVersion);
    // PermissionedResolver's own.
    event AliasChanged(bytes indexed indexedFromName, bytes indexed indexedToName, bytes fromName, bytes toName);
    event NamedResource(uint256 indexed resource, bytes name);
    event NamedTextResource(uint256 indexed resource, bytes name, bytes32 indexed keyHash, string key);
    event NamedDataResource(uint256 indexed resource, bytes name, bytes32 indexed keyHash, string key);
    event NamedAddrResource(uint256 indexed resource, bytes name, uint256 indexed coinType);
    // OpenZeppelin's Initializable, which the real resolver emits once per proxy.
    event Initialized(uint64 version);

    error InvalidInitialization();
    error InvalidOwner();
    error UnsupportedResolverProfile(bytes4 selector);
    error InvalidEVMAddress(bytes addressBytes);
    error InvalidContentType(uint256 contentType);

    struct Records {
        bytes contenthash;
        bytes32[2] pubkey;
        string name;
        mapping(uint256 coinType => bytes) addresses;
        mapping(string key => string) texts;
        mapping(string key => bytes) datas;
        mapping(uint256 contentType => bytes) abis;
        mapping(bytes4 interfaceId => address) interfaces;
    }

    /// True on the implementation from its constructor, and on a proxy once `initialize` ran.
    bool private _initialized;
    mapping(bytes32 node => uint64) private _versions;
    mapping(bytes32 node => mapping(uint64 version => Records)) private _records;
    /// The alias target (a DNS-encoded name) of the name with this node.
    mapping(bytes32 node => bytes) private _aliases;
    /// How many accounts hold some role on a (non-root) resource: zero means the next grant announces it.
    mapping(uint256 resource => uint256) private _holders;

    constructor() {
        _initialized = true;
    }

    function initialize(address admin, uint256 roleBitmap) external {
        if (_initialized) revert InvalidInitialization();
        if (admin == address(0)) revert InvalidOwner();
        _initialized = true;
        _grantRoles(ROOT_RESOURCE, roleBitmap, admin, false);
        emit Initialized(1);
    }

    // ---- roles ----

    /// The EAC resource of a name (`part` 0) or of one keyed record of a name (`node` 0: of every name).
    function _resource(bytes32 node, bytes32 part) private pure returns (uint256) {
        return node == 0 && part == 0 ? ROOT_RESOURCE : uint256(keccak256(abi.encode(node, part)));
    }

    function _coinPart(uint256 coinType) private pure returns (bytes32) {
        return keccak256(abi.encode(coinType));
    }

    function _keyPart(string memory key) private pure returns (bytes32) {
        return keccak256(bytes(key));
    }

    /// Reverts unless the sender may write the `role` record `part` (0: a record without a key) of `node`.
    function _checkWriter(bytes32 node, bytes32 part, uint256 role) private view {
        if (
            part != 0
                && (hasRoles(_resource(node, part), role, msg.sender) || hasRoles(_resource(0, part), role, msg.sender))
        ) return;
        _checkRoles(_resource(node, 0), role, msg.sender);
    }

    /// The generic grant is disabled: roles on a name or record go through the `authorize*Roles` functions.
    function grantRoles(uint256 resource, uint256 roleBitmap, address account) public pure override returns (bool) {
        revert EACCannotGrantRoles(resource, roleBitmap, account);
    }

    function revokeRoles(uint256 resource, uint256 roleBitmap, address account) public pure override returns (bool) {
        revert EACCannotRevokeRoles(resource, roleBitmap, account);
    }

    /// Grants (or revokes) `roleBitmap` on the name `toName` (DNS-encoded; the root name means root roles).
    function authorizeNameRoles(bytes calldata toName, uint256 roleBitmap, address account, bool grant)
        external
        returns (bool)
    {
        uint256 resource = _resource(ResolutionLib.namehash(toName, 0), 0);
        _checkAuthorizer(resource, roleBitmap, grant);
        if (grant && _unheld(resource)) emit NamedResource(resource, toName);
        return _changeRoles(resource, roleBitmap, account, grant);
    }

    /// Grants (or revokes) `setText(key)` on `toName` (the root name: that key of every name). Needs the admin of
    /// ROLE_SET_TEXT on the name (or at the root).
    function authorizeTextRoles(bytes calldata toName, string calldata key, address account, bool grant)
        external
        returns (bool)
    {
        bytes32 node = ResolutionLib.namehash(toName, 0);
        uint256 resource = _resource(node, _keyPart(key));
        _checkAuthorizer(_resource(node, 0), ROLE_SET_TEXT, grant);
        if (grant && _unheld(resource)) emit NamedTextResource(resource, toName, keccak256(bytes(key)), key);
        return _changeRoles(resource, ROLE_SET_TEXT, account, grant);
    }

    /// Grants (or revokes) `setData(key)` on `toName`, as `authorizeTextRoles` does for texts.
    function authorizeDataRoles(bytes calldata toName, string calldata key, address account, bool grant)
        external
        returns (bool)
    {
        bytes32 node = ResolutionLib.namehash(toName, 0);
        uint256 resource = _resource(node, _keyPart(key));
        _checkAuthorizer(_resource(node, 0), ROLE_SET_DATA, grant);
        if (grant && _unheld(resource)) emit NamedDataResource(resource, toName, keccak256(bytes(key)), key);
        return _changeRoles(resource, ROLE_SET_DATA, account, grant);
    }

    /// Grants (or revokes) `setAddr(coinType)` on `toName`, as `authorizeTextRoles` does for texts.
    function authorizeAddrRoles(bytes calldata toName, uint256 coinType, address account, bool grant)
        external
        returns (bool)
    {
        bytes32 node = ResolutionLib.namehash(toName, 0);
        uint256 resource = _resource(node, _coinPart(coinType));
        _checkAuthorizer(_resource(node, 0), ROLE_SET_ADDR, grant);
        if (grant && _unheld(resource)) emit NamedAddrResource(resource, toName, coinType);
        return _changeRoles(resource, ROLE_SET_ADDR, account, grant);
    }

    /// Reverts unless the sender holds the admin bits of `roleBitmap` on `resource` (or at the root).
    function _checkAuthorizer(uint256 resource, uint256 roleBitmap, bool grant) private view {
        if (grant && roleBitmap & ~_settableRoles(resource, msg.sender) != 0) {
            revert EACCannotGrantRoles(resource, roleBitmap, msg.sender);
        }
        if (!grant && roleBitmap & ~_revokableRoles(resource, msg.sender) != 0) {
            revert EACCannotRevokeRoles(resource, roleBitmap, msg.sender);
        }
    }

    /// Whether nobody holds a role on a name or record resource yet (its first grant announces it).
    function _unheld(uint256 resource) private view returns (bool) {
        return resource != ROOT_RESOURCE && _holders[resource] == 0;
    }

    /// Grants or revokes, keeping the count of holders per resource.
    function _changeRoles(uint256 resource, uint256 roleBitmap, address account, bool grant) private returns (bool changed) {
        uint256 before = roles(resource, account);
        changed = grant ? _grantRoles(resource, roleBitmap, account, true) : _revokeRoles(resource, roleBitmap, account, true);
        uint256 afterwards = roles(resource, account);
        if (before == 0 && afterwards != 0) _holders[resource]++;
        else if (before != 0 && afterwards == 0) _holders[resource]--;
    }

    // ---- record writes ----

    function clearRecords(bytes32 node) external {
        _checkWriter(node, 0, ROLE_CLEAR);
        uint64 version = ++_versions[node];
        emit VersionChanged(node, version);
    }

    /// The ETH address (coin type 60); the zero address is stored as 20 zero bytes.
    function setAddr(bytes32 node, address a) external {
        setAddr(node, COIN_TYPE_ETH, abi.encodePacked(a));
    }

    function setAddr(bytes32 node, uint256 coinType, bytes memory addressBytes) public {
        _checkWriter(node, _coinPart(coinType), ROLE_SET_ADDR);
        if (_isEvmCoinType(coinType) && addressBytes.length != 0 && addressBytes.length != 20) {
            revert InvalidEVMAddress(addressBytes);
        }
        _current(node).addresses[coinType] = addressBytes;
        emit AddressChanged(node, coinType, addressBytes);
        if (coinType == COIN_TYPE_ETH) emit AddrChanged(node, address(bytes20(addressBytes)));
    }

    function setText(bytes32 node, string calldata key, string calldata value) external {
        _checkWriter(node, _keyPart(key), ROLE_SET_TEXT);
        _current(node).texts[key] = value;
        emit TextChanged(node, key, key, value);
    }

    function setData(bytes32 node, string calldata key, bytes calldata value) external {
        _checkWriter(node, _keyPart(key), ROLE_SET_DATA);
        _current(node).datas[key] = value;
        emit DataChanged(node, key, key, value);
    }

    function setContenthash(bytes32 node, bytes calldata hash) external {
        _checkWriter(node, 0, ROLE_SET_CONTENTHASH);
        _current(node).contenthash = hash;
        emit ContenthashChanged(node, hash);
    }

    function setName(bytes32 node, string calldata newName) external {
        _checkWriter(node, 0, ROLE_SET_NAME);
        _current(node).name = newName;
        emit NameChanged(node, newName);
    }

    /// `contentType` is one bit (ENSIP-4: 1 JSON, 2 zlib JSON, 4 CBOR, 8 URI).
    function setABI(bytes32 node, uint256 contentType, bytes calldata value) external {
        _checkWriter(node, 0, ROLE_SET_ABI);
        if (contentType == 0 || contentType & (contentType - 1) != 0) revert InvalidContentType(contentType);
        _current(node).abis[contentType] = value;
        emit ABIChanged(node, contentType);
    }

    function setPubkey(bytes32 node, bytes32 x, bytes32 y) external {
        _checkWriter(node, 0, ROLE_SET_PUBKEY);
        _current(node).pubkey = [x, y];
        emit PubkeyChanged(node, x, y);
    }

    function setInterface(bytes32 node, bytes4 interfaceID, address implementer) external {
        _checkWriter(node, 0, ROLE_SET_INTERFACE);
        _current(node).interfaces[interfaceID] = implementer;
        emit InterfaceChanged(node, interfaceID, implementer);
    }

    /// Names ending in `fromName` resolve as if they ended in `toName` (an empty `toName` removes the alias).
    function setAlias(bytes calldata fromName, bytes calldata toName) external onlyRootRoles(ROLE_SET_ALIAS) {
        _aliases[ResolutionLib.namehash(fromName, 0)] = toName;
        emit AliasChanged(fromName, toName, fromName, toName);
    }

    /// Several writes in one transaction, each checked as if sent alone; the first failure reverts them all.
    function multicall(bytes[] calldata calls) public returns (bytes[] memory results) {
        results = new bytes[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory answer) = address(this).delegatecall(calls[i]);
            if (!ok) ResolutionLib.rethrow(answer);
            results[i] = answer;
        }
    }

    /// `multicall`; the node is not checked here (each call checks its own).
    function multicallWithNodeCheck(bytes32, bytes[] calldata calls) external returns (bytes[] memory) {
        return multicall(calls);
    }

    // ---- reads ----

    function recordVersions(bytes32 node) external view returns (uint64) {
        return _versions[node];
    }

    function addr(bytes32 node) public view returns (address payable) {
        return payable(address(bytes20(addr(node, COIN_TYPE_ETH))));
    }

    function addr(bytes32 node, uint256 coinType) public view returns (bytes memory addressBytes) {
        Records storage r = _current(node);
        addressBytes = r.addresses[coinType];
        if (addressBytes.length == 0 && _chainOfCoinType(coinType) != 0) addressBytes = r.addresses[COIN_TYPE_DEFAULT];
    }

    /// Whether the coin type's own address is set (no default fallback).
    function hasAddr(bytes32 node, uint256 coinType) external view returns (bool) {
        return _current(node).addresses[coinType].length != 0;
    }

    function text(bytes32 node, string calldata key) external view returns (string memory) {
        return _current(node).texts[key];
    }

    function data(bytes32 node, string calldata key) external view returns (bytes memory) {
        return _current(node).datas[key];
    }

    function contenthash(bytes32 node) external view returns (bytes memory) {
        return _current(node).contenthash;
    }

    function name(bytes32 node) external view returns (string memory) {
        return _current(node).name;
    }

    function pubkey(bytes32 node) external view returns (bytes32 x, bytes32 y) {
        bytes32[2] storage p = _current(node).pubkey;
        return (p[0], p[1]);
    }

    /// The first set ABI among the content types `contentTypes` asks for (lowest bit first), or (0, "").
    function ABI(bytes32 node, uint256 contentTypes) external view returns (uint256, bytes memory) {
        Records storage r = _current(node);
        for (uint256 t = 1; t != 0 && t <= contentTypes; t <<= 1) {
            if (t & contentTypes != 0 && r.abis[t].length != 0) return (t, r.abis[t]);
        }
        return (0, "");
    }

    /// The implementer set for the interface or, without one, the name's ETH address when that contract says (by
    /// ERC-165) that it implements the interface itself (ENSIP-8).
    function interfaceImplementer(bytes32 node, bytes4 interfaceID) external view returns (address implementer) {
        implementer = _current(node).interfaces[interfaceID];
        if (implementer == address(0)) {
            address a = addr(node);
            if (a != address(0) && ResolutionLib.supportsInterface(a, interfaceID)) implementer = a;
        }
    }

    /// The name `fromName` resolves as: empty when no alias applies. Each round finds the longest suffix of the current
    /// name that has an alias (the whole name first, the root last) and puts the alias target in its place, keeping
    /// the labels before it; rounds go on until none applies or the target found is the one the previous round found.
    function getAlias(bytes memory fromName) public view returns (bytes memory toName) {
        bytes memory current = fromName;
        bytes32 previous;
        while (true) {
            (bytes memory target, bytes memory rewritten) = _aliasOnce(current);
            if (rewritten.length == 0) break;
            bytes32 targetHash = keccak256(target);
            if (targetHash == previous) break;
            previous = targetHash;
            toName = rewritten;
            current = rewritten;
        }
    }

    function _aliasOnce(bytes memory from) private view returns (bytes memory target, bytes memory rewritten) {
        uint256[] memory offsets = ResolutionLib.labelOffsets(from, 0);
        for (uint256 i = 0; i < offsets.length; i++) {
            target = _aliases[ResolutionLib.namehash(from, offsets[i])];
            if (target.length != 0) return (target, bytes.concat(_prefix(from, offsets[i]), target));
        }
        return ("", "");
    }

    function _prefix(bytes memory b, uint256 length) private pure returns (bytes memory out) {
        out = new bytes(length);
        for (uint256 i = 0; i < length; i++) {
            out[i] = b[i];
        }
    }

    /// ENSIP-10: answers `data` (a resolver call, or `multicall(bytes[])` of calls) for `name`, or for the name it is
    /// aliased to. The node in the calldata is replaced by that name's node, at every level of a multicall. A single
    /// call's revert is passed on, and an empty answer (a profile this resolver lacks) reverts
    /// `UnsupportedResolverProfile`; in a multicall each answer, error or `UnsupportedResolverProfile` takes its place.
    function resolve(bytes calldata fromName, bytes calldata fromData) external view returns (bytes memory) {
        bytes memory target = getAlias(fromName);
        bytes32 node = ResolutionLib.namehash(target.length == 0 ? fromName : target, 0);
        bytes memory call = _withNode(fromData, node);
        if (ResolutionLib.isMulticall(call)) {
            bytes[] memory calls = ResolutionLib.multicallCalls(call);
            for (uint256 i = 0; i < calls.length; i++) {
                (, bytes memory answer) = address(this).staticcall(calls[i]);
                if (answer.length == 0) answer = abi.encodeWithSelector(UnsupportedResolverProfile.selector, bytes4(calls[i]));
                calls[i] = answer;
            }
            return abi.encode(calls);
        }
        (bool ok, bytes memory result) = address(this).staticcall(call);
        if (!ok) ResolutionLib.rethrow(result);
        if (result.length == 0) revert UnsupportedResolverProfile(bytes4(fromData));
        return result;
    }

    /// A copy of resolver calldata `call(node, ...)` with `node` in place of its first argument; a multicall's calls
    /// each get it. Calldata too short to hold a node is copied unchanged.
    function _withNode(bytes memory call, bytes32 node) private pure returns (bytes memory out) {
        if (ResolutionLib.isMulticall(call)) {
            bytes[] memory calls = ResolutionLib.multicallCalls(call);
            for (uint256 i = 0; i < calls.length; i++) {
                calls[i] = _withNode(calls[i], node);
            }
            return abi.encodeWithSelector(ResolutionLib.MULTICALL, calls);
        }
        out = bytes.concat(call);
        if (out.length >= 36) {
            for (uint256 i = 0; i < 32; i++) {
                out[4 + i] = node[i];
            }
        }
    }

    // ---- introspection ----

    /// ERC-7996: `resolve` answers a multicall itself.
    function supportsFeature(bytes4 feature) external pure returns (bool) {
        return feature == bytes4(keccak256("eth.ens.resolver.extended.multicall"));
    }

    function supportsInterface(bytes4 id) public view override returns (bool) {
        return id == type(IPermissionedResolver).interfaceId
            || id == ResolutionLib.EXTENDED_RESOLVER
            || id == this.supportsFeature.selector // IERC7996
            || id == (ResolutionLib.MULTICALL ^ this.multicallWithNodeCheck.selector) // IMulticallable
            || id == this.ABI.selector
            || id == bytes4(keccak256("addr(bytes32)"))
            || id == bytes4(keccak256("addr(bytes32,uint256)"))
            || id == this.contenthash.selector
            || id == this.data.selector
            || id == this.hasAddr.selector
            || id == this.interfaceImplementer.selector
            || id == this.name.selector
            || id == this.pubkey.selector
            || id == this.text.selector
            || id == this.recordVersions.selector // IVersionableResolver
            || super.supportsInterface(id);
    }

    // ---- internals ----

    function _current(bytes32 node) private view returns (Records storage) {
        return _records[node][_versions[node]];
    }

    /// ENSIP-19: 1 for ETH (60), the chain id of an ENSIP-11 coin type (0x80000000 | chainId), else 0 (the default
    /// coin type 0x80000000 itself included).
    function _chainOfCoinType(uint256 coinType) private pure returns (uint256) {
        if (coinType == COIN_TYPE_ETH) return 1;
        uint256 flipped = coinType ^ COIN_TYPE_DEFAULT;
        return flipped < COIN_TYPE_DEFAULT ? flipped : 0;
    }

    function _isEvmCoinType(uint256 coinType) private pure returns (bool) {
        return coinType == COIN_TYPE_DEFAULT || _chainOfCoinType(coinType) != 0;
    }
}
