// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

interface IERC20Like {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IERC721Like {
    function transferFrom(address from, address to, uint256 id) external;
}

interface IERC1155Like {
    function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes calldata data) external;
}

/// A Seaport stand-in that emits exactly Seaport 1.5's OrderFulfilled and moves exactly the items it reports. An
/// offerer lists an order onchain with `validate` (Seaport's own alternative to a signature); anyone fulfills it once,
/// paying every consideration item (ETH through msg.value) and naming who receives the offer items. No criteria,
/// partial fills, conduits, zones or order matching: the devnet needs the event, not the marketplace.
contract DevnetSeaport {
    enum ItemType {
        NATIVE,
        ERC20,
        ERC721,
        ERC1155,
        ERC721_WITH_CRITERIA,
        ERC1155_WITH_CRITERIA
    }

    struct SpentItem {
        ItemType itemType;
        address token;
        uint256 identifier;
        uint256 amount;
    }

    struct ReceivedItem {
        ItemType itemType;
        address token;
        uint256 identifier;
        uint256 amount;
        address payable recipient;
    }

    event OrderFulfilled(
        bytes32 orderHash, address indexed offerer, address indexed zone, address recipient, SpentItem[] offer, ReceivedItem[] consideration
    );

    mapping(bytes32 => bool) public validated;
    mapping(bytes32 => bool) public filled;

    function orderHashOf(address offerer, SpentItem[] calldata offer, ReceivedItem[] calldata consideration, uint256 salt)
        public
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(offerer, offer, consideration, salt));
    }

    function validate(SpentItem[] calldata offer, ReceivedItem[] calldata consideration, uint256 salt) external returns (bytes32 orderHash) {
        orderHash = orderHashOf(msg.sender, offer, consideration, salt);
        validated[orderHash] = true;
    }

    function fulfill(address offerer, SpentItem[] calldata offer, ReceivedItem[] calldata consideration, uint256 salt, address recipient)
        external
        payable
    {
        bytes32 orderHash = orderHashOf(offerer, offer, consideration, salt);
        require(validated[orderHash], "order not validated");
        require(!filled[orderHash], "order already filled");
        filled[orderHash] = true;
        for (uint256 i = 0; i < offer.length; i++) {
            // Seaport refuses native offer items outside order matching (InvalidNativeOfferItem).
            require(offer[i].itemType != ItemType.NATIVE, "native offer item");
            _move(offer[i].itemType, offer[i].token, offer[i].identifier, offer[i].amount, offerer, recipient);
        }
        uint256 ether_ = 0;
        for (uint256 i = 0; i < consideration.length; i++) {
            ReceivedItem calldata item = consideration[i];
            if (item.itemType == ItemType.NATIVE) {
                ether_ += item.amount;
                (bool ok,) = item.recipient.call{value: item.amount}("");
                require(ok, "ether transfer failed");
            } else {
                _move(item.itemType, item.token, item.identifier, item.amount, msg.sender, item.recipient);
            }
        }
        require(ether_ == msg.value, "msg.value must equal the native consideration");
        emit OrderFulfilled(orderHash, offerer, address(0), recipient, offer, consideration);
    }

    function _move(ItemType itemType, address token, uint256 id, uint256 amount, address from, address to) private {
        if (itemType == ItemType.ERC20) {
            require(IERC20Like(token).transferFrom(from, to, amount), "erc20 transfer failed");
        } else if (itemType == ItemType.ERC721) {
            require(amount == 1, "erc721 amount");
            IERC721Like(token).transferFrom(from, to, id);
        } else if (itemType == ItemType.ERC1155) {
            IERC1155Like(token).safeTransferFrom(from, to, id, amount, "");
        } else {
            revert("unsupported item type");
        }
    }
}
