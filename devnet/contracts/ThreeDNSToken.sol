// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC1155Receiver} from "./Interfaces.sol";

/// 3DNS: DNS names (label.tld) as ERC-1155 tokens (id = namehash), minted by the operator. Like mainnet's token it
/// also speaks registry: NewOwner under the TLD node (and once for the TLD itself), registry-style subnames deeper
/// down (NewOwner, Transfer) and `owner`/`resolver` reads, so its resolver can authorise holders.
contract ThreeDNSToken {
    event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner);
    event Transfer(bytes32 indexed node, address owner);
    event RegistrationCreated(bytes32 indexed node, bytes32 indexed tld, bytes fqdn, address registrant, uint32 controlBitmap, uint64 expiry);
    event RegistrationExtended(bytes32 indexed node, uint64 indexed duration, uint64 indexed newExpiry);
    event RegistrationTransferred(bytes32 indexed node, address indexed newOwner, address indexed operator);
    event RegistrationBurned(bytes32 indexed node, address indexed burner);
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);

    struct Registration {
        address owner;
        uint64 expiry;
        address resolver;
        bytes fqdn;
    }

    address public immutable operator;
    mapping(bytes32 => Registration) private _registrations;
    /// Subnames below a registration: registry records only (no token), on the parent's resolver.
    struct Subnode {
        address owner;
        address resolver;
    }
    mapping(bytes32 => Subnode) private _subnodes;
    mapping(bytes32 => bool) public tldCreated;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    constructor() {
        operator = msg.sender;
    }

    // ---- operator ----

    /// `fqdn` is DNS wire format with exactly two labels (label.tld).
    function register(bytes calldata fqdn, address registrant, uint32 controlBitmap, uint64 duration, address resolver_)
        external
        returns (bytes32 node)
    {
        require(msg.sender == operator, "only operator");
        require(registrant != address(0), "registrant is zero");
        (bytes32 tld, bytes32 labelhash) = _createTld(fqdn);
        node = keccak256(abi.encodePacked(tld, labelhash));
        Registration storage r = _registrations[node];
        require(r.owner == address(0) || r.expiry < block.timestamp, "registered");
        uint64 expiry = uint64(block.timestamp) + duration;
        _registrations[node] = Registration(registrant, expiry, resolver_, fqdn);
        emit NewOwner(tld, labelhash, registrant);
        emit TransferSingle(msg.sender, address(0), registrant, uint256(node), 1);
        emit RegistrationCreated(node, tld, fqdn, registrant, controlBitmap, expiry);
    }

    function extend(bytes32 node, uint64 duration) external {
        require(msg.sender == operator, "only operator");
        Registration storage r = _registrations[node];
        require(r.owner != address(0), "not registered");
        r.expiry += duration;
        emit RegistrationExtended(node, duration, r.expiry);
    }

    // ---- holders ----

    /// The holder of `node` (a registration or a subname) gives its subname `label` to `owner_`, on `node`'s
    /// resolver; a zero owner deletes the subname (owner and resolver).
    function setSubnodeOwner(bytes32 node, bytes32 label, address owner_) external returns (bytes32 sub) {
        require(_controls(node, msg.sender), "not the owner");
        sub = keccak256(abi.encodePacked(node, label));
        require(_registrations[sub].owner == address(0), "a registration");
        if (owner_ == address(0)) delete _subnodes[sub];
        else _subnodes[sub] = Subnode(owner_, _resolver(node));
        emit NewOwner(node, label, owner_);
    }

    /// A subname's registry owner changes (registrations move as tokens instead).
    function setOwner(bytes32 node, address owner_) external {
        require(_subnodes[node].owner != address(0) && _controls(node, msg.sender), "not the owner");
        require(owner_ != address(0), "owner is zero");
        _subnodes[node].owner = owner_;
        emit Transfer(node, owner_);
    }

    function burn(bytes32 node) external {
        Registration memory r = _registrations[node];
        require(r.owner != address(0) && (r.owner == msg.sender || isApprovedForAll[r.owner][msg.sender]), "not the owner");
        delete _registrations[node];
        emit TransferSingle(msg.sender, r.owner, address(0), uint256(node), 1);
        emit RegistrationBurned(node, msg.sender);
    }

    function setApprovalForAll(address op, bool approved) external {
        isApprovedForAll[msg.sender][op] = approved;
        emit ApprovalForAll(msg.sender, op, approved);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes calldata data) external {
        _move(from, to, id, amount);
        emit TransferSingle(msg.sender, from, to, id, amount);
        if (to.code.length > 0) {
            require(IERC1155Receiver(to).onERC1155Received(msg.sender, from, id, amount, data) == IERC1155Receiver.onERC1155Received.selector);
        }
    }

    function safeBatchTransferFrom(address from, address to, uint256[] calldata ids, uint256[] calldata amounts, bytes calldata data)
        external
    {
        require(ids.length == amounts.length, "length mismatch");
        for (uint256 i = 0; i < ids.length; i++) _move(from, to, ids[i], amounts[i]);
        emit TransferBatch(msg.sender, from, to, ids, amounts);
        if (to.code.length > 0) {
            require(
                IERC1155Receiver(to).onERC1155BatchReceived(msg.sender, from, ids, amounts, data) == IERC1155Receiver.onERC1155BatchReceived.selector
            );
        }
    }

    // ---- reads ----

    function owner(bytes32 node) external view returns (address) {
        return _owner(node);
    }

    function resolver(bytes32 node) external view returns (address) {
        return _resolver(node);
    }

    function expiry(bytes32 node) external view returns (uint64) {
        return _registrations[node].expiry;
    }

    function fqdnOf(bytes32 node) external view returns (bytes memory) {
        return _registrations[node].fqdn;
    }

    function balanceOf(address account, uint256 id) external view returns (uint256) {
        return account != address(0) && _registrations[bytes32(id)].owner == account ? 1 : 0;
    }

    /// Token metadata as a data URI carrying the DNS wire-format name in hex.
    function uri(uint256 id) external view returns (string memory) {
        return string.concat("data:application/json,{\"fqdn\":\"0x", string(_hex(_registrations[bytes32(id)].fqdn)), "\"}");
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0xd9b67a26;
    }

    function _owner(bytes32 node) private view returns (address) {
        Registration storage r = _registrations[node];
        if (r.owner != address(0)) return r.expiry >= block.timestamp ? r.owner : address(0);
        return _subnodes[node].owner;
    }

    function _resolver(bytes32 node) private view returns (address) {
        Registration storage r = _registrations[node];
        return r.owner != address(0) ? r.resolver : _subnodes[node].resolver;
    }

    function _controls(bytes32 node, address account) private view returns (bool) {
        address o = _owner(node);
        return o != address(0) && (o == account || isApprovedForAll[o][account]);
    }

    /// Parses label.tld and announces the TLD the first time a name under it is registered.
    function _createTld(bytes calldata fqdn) private returns (bytes32 tld, bytes32 labelhash) {
        uint256 len = uint8(fqdn[0]);
        labelhash = keccak256(fqdn[1:1 + len]);
        uint256 tldLen = uint8(fqdn[1 + len]);
        require(fqdn.length == len + tldLen + 3 && fqdn[fqdn.length - 1] == 0, "expected label.tld");
        bytes32 tldLabel = keccak256(fqdn[2 + len:2 + len + tldLen]);
        tld = keccak256(abi.encodePacked(bytes32(0), tldLabel));
        if (!tldCreated[tld]) {
            tldCreated[tld] = true;
            emit NewOwner(bytes32(0), tldLabel, address(this));
        }
    }

    function _move(address from, address to, uint256 id, uint256 amount) private {
        Registration storage r = _registrations[bytes32(id)];
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "not approved");
        require(amount == 1 && r.owner == from && to != address(0), "bad transfer");
        r.owner = to;
        emit RegistrationTransferred(bytes32(id), to, msg.sender);
        emit Transfer(bytes32(id), to);
    }

    function _hex(bytes memory b) private pure returns (bytes memory out) {
        bytes16 digits = "0123456789abcdef";
        out = new bytes(b.length * 2);
        for (uint256 i = 0; i < b.length; i++) {
            out[2 * i] = digits[uint8(b[i]) >> 4];
            out[2 * i + 1] = digits[uint8(b[i]) & 15];
        }
    }
}
