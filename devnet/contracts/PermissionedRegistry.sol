// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {EnhancedAccessControl} from "./EnhancedAccessControl.sol";
import {ERC1155Singleton} from "./ERC1155Singleton.sol";
import {IRegistry, IPermissionedRegistry} from "./RegistryV2Interfaces.sol";

/// ENSv2 registry role bits (contracts-v2's RegistryRolesLib); the admin bit of a role is the role shifted by 128.
library RegistryRoles {
    uint256 internal constant REGISTRAR = 1 << 0;
    uint256 internal constant REGISTER_RESERVED = 1 << 4;
    uint256 internal constant SET_PARENT = 1 << 8;
    uint256 internal constant UNREGISTER = 1 << 12;
    uint256 internal constant RENEW = 1 << 16;
    uint256 internal constant SET_SUBREGISTRY = 1 << 20;
    uint256 internal constant SET_RESOLVER = 1 << 24;
    /// Only its admin bit exists: holding it lets a token's holder transfer the token.
    uint256 internal constant CAN_TRANSFER_ADMIN = (1 << 28) << 128;
    uint256 internal constant UPGRADE = 1 << 124;
    /// What the `.eth` registrar and migration give a registrant on its token.
    uint256 internal constant REGISTRATION =
        SET_SUBREGISTRY | (SET_SUBREGISTRY << 128) | SET_RESOLVER | (SET_RESOLVER << 128) | CAN_TRANSFER_ADMIN;
}

/// Stands for contracts-v2's PermissionedRegistry: one ENSv2 registry, the root, `.eth` or any name's subregistry.
/// Each label is one ERC-1155 token with an expiry (no grace period: at expiry the label is available again, its
/// token reads unowned and its subregistry and resolver read zero). A label is registered (token minted to an owner,
/// with roles on the token's resource), reserved (no owner, no token) or available. Ids: a label's token id and its
/// EAC resource are its labelhash with the low 32 bits replaced by a version; the token version grows whenever the
/// token is burnt and re-minted (re-registration, unregistration, any role change on the token: "regeneration"), the
/// resource version when the token is burnt for good, so old grants stop counting. Events come in the real order
/// (indexers rely on it): LabelRegistered or LabelReserved, the mint's TransferSingle, TokenResource, the owner's
/// EACRolesChanged, then SubregistryUpdated and ResolverUpdated for non-zero values. A transfer needs the holder's
/// CAN_TRANSFER_ADMIN and carries every role the holder has on the token. Left out: HCA senders, metadata, UUPS.
contract PermissionedRegistry is ERC1155Singleton, EnhancedAccessControl, IPermissionedRegistry {
    struct Entry {
        uint32 resourceVersion;
        uint32 tokenVersion;
        uint64 expiry;
        IRegistry subregistry;
        address resolver;
    }

    event TokenResource(uint256 indexed tokenId, uint256 indexed resource);

    error LabelAlreadyRegistered(string label);
    error LabelAlreadyReserved(string label);
    error LabelExpired(uint256 tokenId);
    error CannotReduceExpiry(uint64 oldExpiry, uint64 newExpiry);
    error CannotSetPastExpiry(uint64 expiry);
    error TransferDisallowed(uint256 tokenId, address from);
    error InvalidLabel(string label);

    IRegistry internal _parent;
    string internal _labelInParent;
    mapping(uint256 storageId => Entry) private _entries;

    constructor(address admin, uint256 adminRoles) {
        _grantRoles(ROOT_RESOURCE, adminRoles, admin, false);
    }

    // ---- writes ----

    function register(
        string calldata label,
        address owner,
        IRegistry registry,
        address resolver,
        uint256 roleBitmap,
        uint64 expiry
    ) public virtual returns (uint256) {
        return _register(label, owner, registry, resolver, roleBitmap, expiry, true);
    }

    function renew(uint256 anyId, uint64 newExpiry) external {
        (uint256 tokenId, Entry storage e) = _liveEntryWithRoles(anyId, RegistryRoles.RENEW);
        if (newExpiry < e.expiry) revert CannotReduceExpiry(e.expiry, newExpiry);
        e.expiry = newExpiry;
        emit ExpiryUpdated(tokenId, newExpiry, msg.sender);
    }

    /// Ends the label now; a registered token is burnt and its grants stop counting.
    function unregister(uint256 anyId) external {
        (uint256 tokenId, Entry storage e) = _liveEntryWithRoles(anyId, RegistryRoles.UNREGISTER);
        emit LabelUnregistered(tokenId, msg.sender);
        address holder = _holderOf(tokenId);
        if (holder != address(0)) {
            _burn(holder, tokenId);
            e.resourceVersion++;
            e.tokenVersion++;
        }
        e.expiry = uint64(block.timestamp);
    }

    function setSubregistry(uint256 anyId, IRegistry registry) external {
        (uint256 tokenId, Entry storage e) = _liveEntryWithRoles(anyId, RegistryRoles.SET_SUBREGISTRY);
        e.subregistry = registry;
        emit SubregistryUpdated(tokenId, registry, msg.sender);
    }

    function setResolver(uint256 anyId, address resolver) external {
        (uint256 tokenId, Entry storage e) = _liveEntryWithRoles(anyId, RegistryRoles.SET_RESOLVER);
        e.resolver = resolver;
        emit ResolverUpdated(tokenId, resolver, msg.sender);
    }

    /// Names this registry's canonical place: the parent registry and the label there.
    function setParent(IRegistry parent, string calldata label) external onlyRootRoles(RegistryRoles.SET_PARENT) {
        _parent = parent;
        _labelInParent = label;
        emit ParentUpdated(parent, label, msg.sender);
    }

    /// Roles on a name are granted on its current resource, whatever version of its id is given.
    function grantRoles(uint256 anyId, uint256 roleBitmap, address account) public override returns (bool) {
        return super.grantRoles(getResource(anyId), roleBitmap, account);
    }

    function revokeRoles(uint256 anyId, uint256 roleBitmap, address account) public override returns (bool) {
        return super.revokeRoles(getResource(anyId), roleBitmap, account);
    }

    // ---- reads ----

    function getSubregistry(string calldata label) external view virtual returns (IRegistry) {
        Entry storage e = _entry(_labelId(label));
        return _expired(e) ? IRegistry(address(0)) : e.subregistry;
    }

    function getResolver(string calldata label) public view virtual returns (address) {
        Entry storage e = _entry(_labelId(label));
        return _expired(e) ? address(0) : e.resolver;
    }

    function getParent() external view returns (IRegistry parent, string memory label) {
        return (_parent, _labelInParent);
    }

    function getExpiry(uint256 anyId) external view returns (uint64) {
        return _entry(anyId).expiry;
    }

    function getTokenId(uint256 anyId) public view returns (uint256) {
        return _withVersion(anyId, _entry(anyId).tokenVersion);
    }

    function getResource(uint256 anyId) public view returns (uint256) {
        return anyId == ROOT_RESOURCE ? ROOT_RESOURCE : _resourceOf(anyId, _entry(anyId));
    }

    function getStatus(uint256 anyId) public view returns (Status) {
        Entry storage e = _entry(anyId);
        return _status(e, _holderOf(_withVersion(anyId, e.tokenVersion)));
    }

    function getState(uint256 anyId) external view returns (State memory s) {
        Entry storage e = _entry(anyId);
        s.tokenId = _withVersion(anyId, e.tokenVersion);
        s.resource = _resourceOf(anyId, e);
        s.expiry = e.expiry;
        s.latestOwner = _holderOf(s.tokenId);
        s.status = _status(e, s.latestOwner);
    }

    /// The holder of the current token while the label is unexpired; zero otherwise, or for an old version's id.
    function ownerOf(uint256 tokenId) public view override returns (address) {
        Entry storage e = _entry(tokenId);
        if (tokenId != _withVersion(tokenId, e.tokenVersion) || _expired(e)) return address(0);
        return _holderOf(tokenId);
    }

    /// The last holder of the token, expired or not.
    function latestOwnerOf(uint256 tokenId) external view returns (address) {
        return _holderOf(tokenId);
    }

    function roles(uint256 anyId, address account) public view override returns (uint256) {
        return super.roles(getResource(anyId), account);
    }

    function hasRoles(uint256 anyId, uint256 roleBitmap, address account) public view override returns (bool) {
        return super.hasRoles(getResource(anyId), roleBitmap, account);
    }

    function supportsInterface(bytes4 interfaceId)
        public
        view
        virtual
        override(ERC1155Singleton, EnhancedAccessControl)
        returns (bool)
    {
        // IPermissionedRegistry's own functions, as `type(IPermissionedRegistry).interfaceId` counts them.
        bytes4 permissioned = this.latestOwnerOf.selector ^ this.getState.selector ^ this.getStatus.selector
            ^ this.getResource.selector ^ this.getTokenId.selector;
        bytes4 registry = this.getSubregistry.selector ^ this.getResolver.selector ^ this.getParent.selector;
        return interfaceId == permissioned || interfaceId == registry || ERC1155Singleton.supportsInterface(interfaceId);
    }

    // ---- internals ----

    /// `checkRoles` false: a migration path that registers on its own authority (a WrapperRegistry's own children).
    function _register(
        string memory label,
        address owner,
        IRegistry registry,
        address resolver,
        uint256 roleBitmap,
        uint64 expiry,
        bool checkRoles
    ) internal returns (uint256 tokenId) {
        if (bytes(label).length == 0 || bytes(label).length > 255) revert InvalidLabel(label);
        uint256 labelId = _labelId(label);
        Entry storage e = _entry(labelId);
        tokenId = _withVersion(labelId, e.tokenVersion);
        address previous = _holderOf(tokenId);
        if (_expired(e)) {
            if (checkRoles) _checkRoles(ROOT_RESOURCE, RegistryRoles.REGISTRAR, msg.sender);
            // A reservation carries no roles.
            if (owner == address(0) && roleBitmap != 0) revert EACCannotGrantRoles(ROOT_RESOURCE, roleBitmap, msg.sender);
        } else {
            if (previous != address(0)) revert LabelAlreadyRegistered(label);
            if (owner == address(0)) revert LabelAlreadyReserved(label);
            if (checkRoles) _checkRoles(ROOT_RESOURCE, RegistryRoles.REGISTER_RESERVED, msg.sender);
            // Registering a reserved label keeps its reservation's expiry unless told otherwise.
            if (expiry == 0) expiry = e.expiry;
        }
        if (expiry <= block.timestamp) revert CannotSetPastExpiry(expiry);
        if (previous != address(0)) {
            // The last holder of an expired name loses the old token and every grant on it.
            _burn(previous, tokenId);
            e.resourceVersion++;
            e.tokenVersion++;
            tokenId = _withVersion(labelId, e.tokenVersion);
        }
        e.expiry = expiry;
        e.subregistry = registry;
        e.resolver = resolver;
        if (owner == address(0)) {
            emit LabelReserved(tokenId, bytes32(labelId), label, expiry, msg.sender);
        } else {
            emit LabelRegistered(tokenId, bytes32(labelId), label, owner, expiry, msg.sender);
            _mint(owner, tokenId);
            uint256 resource = _resourceOf(tokenId, e);
            emit TokenResource(tokenId, resource);
            _grantRoles(resource, roleBitmap, owner, false);
        }
        if (address(registry) != address(0)) emit SubregistryUpdated(tokenId, registry, msg.sender);
        if (resolver != address(0)) emit ResolverUpdated(tokenId, resolver, msg.sender);
    }

    /// A transfer between accounts needs the holder's CAN_TRANSFER_ADMIN and carries the holder's roles with it.
    function _update(address from, address to, uint256[] memory ids, uint256[] memory values) internal override {
        super._update(from, to, ids, values);
        if (from == address(0) || to == address(0)) return;
        for (uint256 i; i < ids.length; ++i) {
            if (!hasRoles(ids[i], RegistryRoles.CAN_TRANSFER_ADMIN, from)) revert TransferDisallowed(ids[i], from);
            if (values[i] > 0) _transferRoles(getResource(ids[i]), from, to);
        }
    }

    /// A grant or revocation on a name regenerates its token (same resource, next token id), so a buyer of a token
    /// can tell its roles changed.
    function _onRolesChanged(uint256 resource) internal override {
        if (resource == ROOT_RESOURCE) return;
        Entry storage e = _entry(resource);
        uint256 oldId = _withVersion(resource, e.tokenVersion);
        address holder = _holderOf(oldId);
        _burn(holder, oldId);
        e.tokenVersion++;
        uint256 newId = _withVersion(resource, e.tokenVersion);
        emit TokenRegenerated(oldId, newId);
        _mint(holder, newId);
    }

    /// A name's holder may grant the roles whose admin bit it holds, but not the admin bits themselves; nobody
    /// grants or revokes on a name without a holder.
    function _settableRoles(uint256 resource, address account) internal view override returns (uint256) {
        uint256 settable = super._settableRoles(resource, account);
        if (resource == ROOT_RESOURCE) return settable;
        if (ownerOf(_withVersion(resource, _entry(resource).tokenVersion)) == address(0)) return 0;
        return settable >> 128;
    }

    function _revokableRoles(uint256 resource, address account) internal view override returns (uint256) {
        if (resource != ROOT_RESOURCE && ownerOf(_withVersion(resource, _entry(resource).tokenVersion)) == address(0)) {
            return 0;
        }
        return super._revokableRoles(resource, account);
    }

    function _liveEntryWithRoles(uint256 anyId, uint256 roleBitmap)
        private
        view
        returns (uint256 tokenId, Entry storage e)
    {
        e = _entry(anyId);
        tokenId = _withVersion(anyId, e.tokenVersion);
        if (_expired(e)) revert LabelExpired(tokenId);
        _checkRoles(_resourceOf(anyId, e), roleBitmap, msg.sender);
    }

    function _entry(uint256 anyId) private view returns (Entry storage) {
        return _entries[_withVersion(anyId, 0)];
    }

    /// An expired name's resource is one version ahead: grants made before expiry do not count after it.
    function _resourceOf(uint256 anyId, Entry storage e) private view returns (uint256) {
        return _withVersion(anyId, _expired(e) ? e.resourceVersion + 1 : e.resourceVersion);
    }

    function _status(Entry storage e, address holder) private view returns (Status) {
        if (_expired(e)) return Status.AVAILABLE;
        return holder == address(0) ? Status.RESERVED : Status.REGISTERED;
    }

    function _expired(Entry storage e) private view returns (bool) {
        return block.timestamp >= e.expiry;
    }

    function _labelId(string memory label) internal pure returns (uint256) {
        return uint256(keccak256(bytes(label)));
    }

    function _withVersion(uint256 anyId, uint32 version) internal pure returns (uint256) {
        return (anyId & ~uint256(0xffffffff)) | version;
    }
}
